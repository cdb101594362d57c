// The shop's server from the command line.
//   npm start         -> build, then this (built: dist/host/main.js) with the embedded stub on
//                        PORT (default 3000)
//   npm run dev       -> this with --dev through tsx: Vite's hot reload, rendering on the server too
//   production        -> API_TARGET=https://backend.example node dist/host/main.js
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { StartError } from './process/start-error.ts';
import { stopOnSignals } from './process/stop-on-signals.ts';
import { readSettings, SettingError, shopOptions, usageText } from './process/settings.ts';

// A render leaves some 2.6 MB of garbage behind, and V8 by default lets the old generation grow
// to about four times what survives a collection (~40 MB here) before the next one: an instance
// under load sat at 250–290 MB. Twice what survives keeps it at 170–180 MB (npm run bench:memory)
// for the same CPU per page as before, within the noise; 1.5 times kept it at 160–170 MB for some
// 6 % more. V8 reads this at every collection, so the host sets it itself rather than every
// command line that starts it.
v8.setFlagsFromString('--heap-growing-percent=100');

/** The command line's flags; a wrong one prints the usage and exits. */
function readArgs() {
  try {
    return parseArgs({
      options: {
        dev: { type: 'boolean' },
        reset: { type: 'boolean' },
        controls: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    console.error((error as Error).message);
    console.error(usageText());
    process.exit(2);
  }
}

const args = readArgs();
if (args.help) {
  console.log(usageText());
  process.exit(0);
}

/** The settings from the environment; a wrong one prints what is wrong and the usage, and exits. */
function readEnvironment() {
  try {
    return readSettings(process.env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    console.error(error.message);
    console.error(usageText());
    process.exit(2);
  }
}

const settings = readEnvironment();
// React's production build unless asked for the development one (hot reload).
process.env.NODE_ENV ??= args.dev ? 'development' : 'production';
// After NODE_ENV: React reads it when it is first imported.
const { BUILD_DIR: dist, startShopServer } = await import('./app.ts');
if (!args.dev && !existsSync(path.join(dist, 'server', 'entry-server.js'))) {
  console.error(`Нет сборки приложения (${dist}).`);
  console.error(
    'Соберите её командой `npm run build` (или запустите `npm start`, он соберёт сам).',
  );
  process.exit(1);
}

try {
  const server = await startShopServer({
    ...shopOptions(settings),
    dev: args.dev === true,
    stub: {
      dataFile: settings.stubDataFile,
      controls: args.controls === true,
      reset: args.reset === true,
    },
  });
  console.log(`Магазин ягод: ${server.url}`);
  console.log(settings.apiTarget ? `API: ${settings.apiTarget}` : 'API: встроенная заглушка');
  if (server.metricsUrl) console.log(`Метрики: ${server.metricsUrl}`);
  if (settings.changeHookSecret) {
    console.log(
      settings.pageRenewUrl
        ? `Хук изменений: POST /hooks/changed; страницы nginx обновляются через ${settings.pageRenewUrl}`
        : 'Хук изменений: POST /hooks/changed; без PAGE_RENEW_URL обновляется только память',
    );
  }
  stopOnSignals(server, 'дожидаюсь начатых запросов и останавливаюсь');
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  // One clear line for what a person can fix; a stack trace only for the unexpected.
  if (code === 'EADDRINUSE')
    console.error(`Порт ${settings.port} занят: задайте другой через PORT=…`);
  else if (error instanceof StartError) console.error(error.message);
  else console.error(error);
  process.exit(1);
}
