// The CLI: `tsx stub-server/serve.ts [--api-only] [--reset] [--controls]`.
//   npm start    -> the production build (dist/) plus the stub on PORT (default 3000)
//   npm run stub -> the stub only (--api-only), with its controls (--controls) so that the pact
//                   verifier can set provider states; `npm run stub -- --reset` re-seeds first
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDataFile } from './app.ts';
import { DataFileError } from './data-file.ts';
import { startServer } from './server.ts';

const args = new Set(process.argv.slice(2));
const known = ['--api-only', '--reset', '--controls', '--help'];
const unknown = [...args].filter((arg) => !known.includes(arg));
if (unknown.length > 0 || args.has('--help')) {
  if (unknown.length > 0) console.error(`Неизвестные параметры: ${unknown.join(' ')}`);
  console.log('Использование: tsx stub-server/serve.ts [--api-only] [--reset] [--controls]');
  console.log('Переменные: PORT (3000), HOST (127.0.0.1), STUB_DATA_FILE, STUB_CONTROLS=1');
  process.exit(unknown.length > 0 ? 2 : 0);
}

const apiOnly = args.has('--api-only');
const staticDir = fileURLToPath(new URL('../dist', import.meta.url));
if (!apiOnly && !existsSync(join(staticDir, 'index.html'))) {
  console.error(`Нет сборки приложения (${join(staticDir, 'index.html')}).`);
  console.error(
    'Соберите её командой `npm run build` (или запустите `npm start`, он соберёт сам),',
  );
  console.error('либо запустите только заглушку API: `npm run stub`.');
  process.exit(1);
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
    staticDir: apiOnly ? null : staticDir,
    controls,
    reset: args.has('--reset'),
  });
  const label = apiOnly ? 'Заглушка API магазина ягод' : 'Магазин ягод';
  console.log(`${label}: ${server.url}${apiOnly ? 'api/' : ''}`);
  console.log(`Данные: ${resolveDataFile()}${args.has('--reset') ? ' (заполнены заново)' : ''}`);
  if (controls) console.log(`Управление для тестов: ${server.url}__control/`);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: останавливаюсь`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  // One clear line, never a stack trace: the data file's own (DataFileError), a busy port, or
  // the reason of anything else.
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof DataFileError) console.error(error.message);
  else if (code === 'EADDRINUSE') console.error(`Порт ${port} занят: задайте другой через PORT=…`);
  else console.error(`Заглушка не запустилась: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
}
