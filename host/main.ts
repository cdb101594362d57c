// The shop's server from the command line.
//   npm start         -> build, then this (built: dist/host/main.js) with the embedded stub on
//                        PORT (default 3000)
//   npm run dev       -> this with --dev through tsx: Vite's hot reload, rendering on the server too
//   production        -> API_TARGET=https://backend.example node dist/host/main.js
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DataFileError } from '../stub-server/data-file.ts';
import { DEFAULT_MAX_ANSWER_BYTES } from './backend-agent.ts';
import { stopOnSignals } from '../stub-server/stop-on-signals.ts';

const USAGE = `Использование: node dist/host/main.js [--dev] [--reset] [--controls]
Переменные окружения:
  PORT (3000), HOST (127.0.0.1)
  API_TARGET            адрес бэкенда (https://backend.example); без него встроена заглушка
  SITE_URL              публичный адрес магазина для canonical и OpenGraph (по умолчанию из запроса)
  SSR_DATA_TIMEOUT_MS   сколько страница ждёт данные на сервере (1500)
  FORM_TIMEOUT_MS       сколько форма без JavaScript ждёт бэкенд, с ответом вместе (8000)
  SITEMAP_TIMEOUT_MS    сколько /sitemap.xml обходит каталог (10000)
  BACKEND_MAX_SOCKETS   сколько соединений сервер держит к бэкенду (64)
  BACKEND_MAX_ANSWER_BYTES  сколько байт может быть в одном ответе бэкенда (${DEFAULT_MAX_ANSWER_BYTES})
  CATALOG_CACHE_FRESH_MS  сколько ответы каталога берутся из памяти без запроса (10000)
  CATALOG_CACHE_STALE_MS  сколько они показываются, пока бэкенд недоступен (86400000)
  CATALOG_CACHE_ENTRIES   сколько ответов каталога хранится в памяти (500)
  PAGE_CACHE_SECONDS    сколько nginx или CDN хранит общую страницу (60)
  STOP_GRACE_MS         сколько остановка ждёт, пока nginx сам закроет простаивающие соединения (5000)
  SHOP_TIME_ZONE        часовой пояс магазина для дат заказов (Europe/Moscow)
  ACCESS_LOG=0          не писать строку на каждый запрос
  STUB_DATA_FILE        файл данных заглушки
  IMAGE_CACHE_DIR       папка кэша уменьшенных картинок (во временной папке системы)
  IMAGE_CACHE_MB        предел кэша картинок в мегабайтах (256)`;

let args;
try {
  args = parseArgs({
    options: {
      dev: { type: 'boolean' },
      reset: { type: 'boolean' },
      controls: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  console.error((error as Error).message);
  console.error(USAGE);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

/** Whether this runtime knows the IANA zone (`Europe/Moscow`) the app will format order dates in. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('ru-RU', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const number = (name: string, fallback: number, max: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    console.error(`Некорректное значение ${name}: ${raw}`);
    process.exit(2);
  }
  return value;
};
const port = number('PORT', 3000, 65_535);
const dataTimeoutMs = number('SSR_DATA_TIMEOUT_MS', 1500, 60_000);
const formTimeoutMs = number('FORM_TIMEOUT_MS', 8000, 60_000);
const sitemapTimeoutMs = number('SITEMAP_TIMEOUT_MS', 10_000, 600_000);
const backendMaxSockets = number('BACKEND_MAX_SOCKETS', 64, 10_000) || 1;
const backendMaxAnswerBytes =
  number('BACKEND_MAX_ANSWER_BYTES', DEFAULT_MAX_ANSWER_BYTES, 2 ** 30) || 1;
const publicAnswers = {
  freshMs: number('CATALOG_CACHE_FRESH_MS', 10_000, 86_400_000),
  staleMs: number('CATALOG_CACHE_STALE_MS', 86_400_000, 30 * 86_400_000),
  maxEntries: number('CATALOG_CACHE_ENTRIES', 500, 1_000_000) || 1,
};
const pageCacheSeconds = number('PAGE_CACHE_SECONDS', 60, 86_400);
const stopGraceMs = number('STOP_GRACE_MS', 5000, 60_000);
const imageCacheMb = number('IMAGE_CACHE_MB', 256, 1_000_000);
const apiTarget = process.env.API_TARGET || undefined;
if (apiTarget && !/^https?:\/\/[^/]+/.test(apiTarget)) {
  console.error(`Некорректный API_TARGET: ${apiTarget} (нужен адрес вида https://backend.example)`);
  process.exit(2);
}
// Unset: the app's own default (host/app.ts). Checked as the app's date formatting will use it.
const timeZone = process.env.SHOP_TIME_ZONE || undefined;
if (timeZone && !isTimeZone(timeZone)) {
  console.error(`Некорректный SHOP_TIME_ZONE: ${timeZone} (нужен пояс вида Europe/Moscow)`);
  process.exit(2);
}
// React's production build unless asked for the development one (hot reload).
process.env.NODE_ENV ??= args.dev ? 'development' : 'production';
// After NODE_ENV: React reads it when it is first imported.
const { REPO_ROOT, startShopServer } = await import('./app.ts');
const dist = path.join(REPO_ROOT, 'dist');
if (!args.dev && !existsSync(path.join(dist, 'server', 'entry-server.js'))) {
  console.error(`Нет сборки приложения (${dist}).`);
  console.error(
    'Соберите её командой `npm run build` (или запустите `npm start`, он соберёт сам).',
  );
  process.exit(1);
}

try {
  const server = await startShopServer({
    port,
    host: process.env.HOST ?? '127.0.0.1',
    apiTarget,
    dev: args.dev === true,
    siteUrl: process.env.SITE_URL || undefined,
    dataTimeoutMs,
    formTimeoutMs,
    sitemapTimeoutMs,
    backendMaxSockets,
    backendMaxAnswerBytes,
    publicAnswers,
    pageCacheSeconds,
    stopGraceMs,
    timeZone,
    accessLog: process.env.ACCESS_LOG !== '0',
    stub: { controls: args.controls === true, reset: args.reset === true },
    images: {
      cacheDir: process.env.IMAGE_CACHE_DIR || undefined,
      cacheMaxBytes: imageCacheMb * 1024 * 1024,
    },
  });
  console.log(`Магазин ягод: ${server.url}`);
  console.log(apiTarget ? `API: ${apiTarget}` : 'API: встроенная заглушка');
  stopOnSignals(server, 'дожидаюсь начатых запросов и останавливаюсь');
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  // One clear line for what a person can fix; a stack trace only for the unexpected.
  if (code === 'EADDRINUSE') console.error(`Порт ${port} занят: задайте другой через PORT=…`);
  else if (error instanceof DataFileError) console.error(error.message);
  else console.error(error);
  process.exit(1);
}
