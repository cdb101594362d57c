// The stub's CLI: `tsx stub-server/serve.ts [--reset] [--controls]`.
//   npm run stub -> the stub API on PORT (default 3000), with its controls (--controls) so that
//                   the pact verifier can set provider states; `npm run stub -- --reset` re-seeds
// The shop itself (npm start) is host/main.ts, which embeds the stub.
import { resolveDataFile } from './app.ts';
import { DataFileError } from './data-file.ts';
import { startServer } from './server.ts';
import { stopOnSignals } from '../host/process/stop-on-signals.ts';

const args = new Set(process.argv.slice(2));
const known = ['--reset', '--controls', '--help'];
const unknown = [...args].filter((arg) => !known.includes(arg));
if (unknown.length > 0 || args.has('--help')) {
  if (unknown.length > 0) console.error(`Неизвестные параметры: ${unknown.join(' ')}`);
  console.log('Использование: tsx stub-server/serve.ts [--reset] [--controls]');
  console.log('Переменные: PORT (3000), HOST (127.0.0.1), STUB_DATA_FILE, STUB_CONTROLS=1');
  process.exit(unknown.length > 0 ? 2 : 0);
}

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Некорректный PORT: ${process.env.PORT}`);
  process.exit(2);
}
const controls = args.has('--controls') || process.env.STUB_CONTROLS === '1';

try {
  const server = await startServer({
    port,
    host: process.env.HOST ?? '127.0.0.1',
    controls,
    reset: args.has('--reset'),
  });
  console.log(`Заглушка API магазина ягод: ${server.url}api/`);
  console.log(`Данные: ${resolveDataFile()}${args.has('--reset') ? ' (заполнены заново)' : ''}`);
  if (controls) console.log(`Управление для тестов: ${server.url}__control/`);
  stopOnSignals(server, 'останавливаюсь');
} catch (error) {
  // One clear line, never a stack trace: the data file's own (DataFileError), a busy port, or
  // the reason of anything else.
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof DataFileError) console.error(error.message);
  else if (code === 'EADDRINUSE') console.error(`Порт ${port} занят: задайте другой через PORT=…`);
  else console.error(`Заглушка не запустилась: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
}
