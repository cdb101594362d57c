// The shop's settings: one table of the environment variables it reads, each with its default,
// its limits and a line of help. The environment is read once, at start (host/main.ts); the
// usage text (`--help`) and docs/deploy.md's table (checked by tests/host/settings.test.ts) are
// made from this table, and it is the only place a default is written: a server started from a
// test takes its defaults from here too (host/app.ts).
import os from 'node:os';
import path from 'node:path';

/** One environment variable. */
export interface Setting<T> {
  env: string;
  default: T;
  /** The default as the usage text and docs/deploy.md show it. */
  shown: string;
  /** What the variable may hold, said to a person. */
  limits: string;
  help: string;
  /** The value of a set variable, or undefined when it is outside the limits. */
  read(raw: string): T | undefined;
}

const MB = 1024 * 1024;

/** Whether this Node formats dates in `zone`: Intl refuses a zone it does not know. */
function knownTimeZone(zone: string): boolean {
  try {
    return new Intl.DateTimeFormat('ru-RU', { timeZone: zone }).resolvedOptions().timeZone !== '';
  } catch {
    return false;
  }
}
const DAY_MS = 86_400_000;

/** A whole number from `min` to `max`. */
function whole(env: string, value: number, min: number, max: number, help: string) {
  const setting: Setting<number> = {
    env,
    default: value,
    shown: String(value),
    limits: `целое от ${min} до ${max}`,
    help,
    read(raw) {
      const number = Number(raw);
      return /^\d+$/.test(raw.trim()) && number >= min && number <= max ? number : undefined;
    },
  };
  return setting;
}

/** Text that passes `check` (any text without one). */
function text<T extends string | undefined>(
  env: string,
  value: T,
  help: string,
  options: { shown?: string; limits?: string; check?: (raw: string) => boolean } = {},
) {
  const setting: Setting<string | T> = {
    env,
    default: value,
    shown: options.shown ?? value ?? '—',
    limits: options.limits ?? 'любой текст',
    help,
    read: (raw) => (options.check && !options.check(raw) ? undefined : raw),
  };
  return setting;
}

/** 1 or 0. */
function flag(env: string, value: boolean, help: string) {
  const setting: Setting<boolean> = {
    env,
    default: value,
    shown: value ? '1' : '0',
    limits: '0 или 1',
    help,
    read: (raw) => (raw === '1' ? true : raw === '0' ? false : undefined),
  };
  return setting;
}

/** A number from 0 to 1, such as a share of views. */
function share(env: string, value: number, help: string) {
  const setting: Setting<number> = {
    env,
    default: value,
    shown: String(value),
    limits: 'число от 0 до 1',
    help,
    read(raw) {
      const number = Number(raw);
      return /^\s*(0|1|0?\.\d+|1\.0*)\s*$/.test(raw) && number >= 0 && number <= 1
        ? number
        : undefined;
    },
  };
  return setting;
}

/** The metrics' port: unset is PORT + 1000 (two instances on one machine get two), `off` none. */
const metricsPort: Setting<number | 'off' | undefined> = {
  env: 'METRICS_PORT',
  default: undefined,
  shown: 'PORT + 1000',
  limits: 'целое от 0 до 65535 или off',
  help: 'порт метрик Prometheus (/metrics), не через nginx; off — без метрик',
  read: (raw) => (raw === 'off' ? 'off' : whole('', 0, 0, 65_535, '').read(raw)),
};

export const SETTINGS = {
  port: whole('PORT', 3000, 0, 65_535, 'порт, на котором слушает сервер (0 — любой свободный)'),
  host: text('HOST', '127.0.0.1', 'адрес, на котором слушает сервер'),
  apiTarget: text(
    'API_TARGET',
    undefined,
    'адрес бэкенда Django: страницы берут данные у него, /api и /media передаются ему; без него встроена заглушка',
    { limits: 'адрес вида https://backend.example', check: (raw) => /^https?:\/\/[^/]+/.test(raw) },
  ),
  siteUrl: text(
    'SITE_URL',
    undefined,
    'публичный адрес магазина для canonical, OpenGraph и карты сайта (без него — адрес запроса)',
  ),
  dataTimeoutMs: whole(
    'SSR_DATA_TIMEOUT_MS',
    1500,
    0,
    60_000,
    'сколько страница ждёт данные на сервере; что не пришло, показано незагруженным, с «Повторить»',
  ),
  formTimeoutMs: whole(
    'FORM_TIMEOUT_MS',
    8000,
    0,
    60_000,
    'сколько форма без JavaScript (корзина, оформление, вход) ждёт бэкенд, с ответом вместе',
  ),
  sitemapTimeoutMs: whole(
    'SITEMAP_TIMEOUT_MS',
    10_000,
    0,
    600_000,
    'сколько /sitemap.xml обходит каталог, прежде чем ответить 503',
  ),
  backendMaxSockets: whole(
    'BACKEND_MAX_SOCKETS',
    64,
    1,
    10_000,
    'сколько соединений сервер держит к бэкенду; сверх них вызов сразу не удаётся',
  ),
  proxyTimeoutMs: whole(
    'PROXY_TIMEOUT_MS',
    20_000,
    1,
    29_000,
    'сколько /api и /media ждут весь ответ бэкенда, до последнего байта; потом 504 (меньше 30 с nginx)',
  ),
  backendMaxAnswerBytes: whole(
    'BACKEND_MAX_ANSWER_BYTES',
    2 * MB,
    1,
    2 ** 30,
    'сколько байт может быть в одном ответе бэкенда (серверу и /api); сверх них вызов не удаётся',
  ),
  catalogCacheFreshMs: whole(
    'CATALOG_CACHE_FRESH_MS',
    10_000,
    0,
    DAY_MS,
    'сколько общий ответ (каталог, поиск, карусель, новости, политика) берётся из памяти без запроса',
  ),
  catalogCacheStaleMs: whole(
    'CATALOG_CACHE_STALE_MS',
    DAY_MS,
    0,
    30 * DAY_MS,
    'сколько последний удачный общий ответ показывается, пока бэкенд недоступен или медлит',
  ),
  catalogCacheEntries: whole(
    'CATALOG_CACHE_ENTRIES',
    500,
    1,
    1_000_000,
    'сколько общих ответов хранится в памяти; первыми уходят давно не нужные',
  ),
  pageCacheSeconds: whole(
    'PAGE_CACHE_SECONDS',
    60,
    0,
    86_400,
    'сколько nginx или CDN хранит общую страницу, прежде чем спросить сервер снова',
  ),
  changeHookSecret: text(
    'CHANGE_HOOK_SECRET',
    undefined,
    'общий с бэкендом секрет хука изменений (POST /hooks/changed, подпись HMAC-SHA256); без него хук выключен',
    { limits: 'не короче 32 символов', check: (raw) => raw.length >= 32 },
  ),
  pageRenewUrl: text(
    'PAGE_RENEW_URL',
    undefined,
    'слушатель nginx, через который экземпляр обновляет хранимые в nginx страницы; без него — только память',
    {
      limits: 'адрес вида http://127.0.0.1:8082',
      check: (raw) => /^http:\/\/[^/]+\/?$/.test(raw),
    },
  ),
  keptPagesFile: text(
    'KEPT_PAGES_FILE',
    undefined,
    'файл со списком страниц nginx, которые обновляет этот экземпляр, между его перезапусками; у каждого свой',
  ),
  stopGraceMs: whole(
    'STOP_GRACE_MS',
    5000,
    0,
    60_000,
    'сколько остановка ждёт, пока nginx сам закроет простаивающие соединения (дольше его keepalive_timeout)',
  ),
  // Unset: the app's own zone (src/lib/shop-time-zone.ts, which the browser needs too), taken
  // from the app's entry at start (host/app.ts).
  timeZone: text(
    'SHOP_TIME_ZONE',
    undefined,
    'часовой пояс магазина: в нём показаны даты заказов на любом телефоне',
    { shown: 'Europe/Moscow', limits: 'пояс IANA вида Europe/Moscow', check: knownTimeZone },
  ),
  accessLog: flag(
    'ACCESS_LOG',
    true,
    'писать строку JSON на каждый запрос: id запроса, метод, адрес, маршрут, статус, мс',
  ),
  metricsPort,
  metricsHost: text('METRICS_HOST', '127.0.0.1', 'адрес, на котором слушают метрики'),
  serverTiming: flag(
    'SERVER_TIMING',
    true,
    'заголовок Server-Timing у страниц: ожидание бэкенда и отрисовка, мс',
  ),
  rumSample: share(
    'RUM_SAMPLE',
    1,
    'доля просмотров, браузер которых сообщает на /rum скорость (LCP, INP, CLS, FCP, TTFB)',
  ),
  stubDataFile: text('STUB_DATA_FILE', undefined, 'файл данных встроенной заглушки', {
    shown: 'stub-server/data/db.json',
  }),
  imageCacheDir: text(
    'IMAGE_CACHE_DIR',
    path.join(os.tmpdir(), 'berries-shop-images'),
    'папка кэша уменьшенных картинок',
    { shown: 'berries-shop-images во временной папке системы' },
  ),
  imageCacheMb: whole(
    'IMAGE_CACHE_MB',
    256,
    0,
    1_000_000,
    'предел кэша картинок на диске в мегабайтах; первыми уходят давно не нужные',
  ),
  imageSourceMb: whole(
    'IMAGE_SOURCE_MAX_MB',
    25,
    1,
    1024,
    'самый большой исходный файл картинки в мегабайтах (фото телефона — от 2 до 10)',
  ),
  imageMaxPixels: whole(
    'IMAGE_MAX_PIXELS',
    50_000_000,
    1,
    1_000_000_000,
    'сколько пикселей картинки сервер согласен раскодировать (камера телефона на 48 Мп)',
  ),
  imageTimeoutMs: whole(
    'IMAGE_TIMEOUT_MS',
    10_000,
    1,
    600_000,
    'сколько может длиться загрузка исходной картинки и, отдельно, её уменьшение',
  ),
  imageRevalidateMs: whole(
    'IMAGE_REVALIDATE_MS',
    10 * 60_000,
    0,
    30 * DAY_MS,
    'сколько уменьшенная картинка отдаётся, прежде чем исходная будет проверена снова',
  ),
  imageResizes: whole('IMAGE_RESIZES', 2, 1, 64, 'сколько картинок уменьшается одновременно'),
  imageResizesWaiting: whole(
    'IMAGE_RESIZES_WAITING',
    64,
    0,
    10_000,
    'сколько картинок может ждать уменьшения; сверх них отдаётся заглушка',
  ),
};

type Table = typeof SETTINGS;
export type Settings = { [K in keyof Table]: Table[K]['default'] };

/** Every setting at its default. */
export const settingDefaults = Object.fromEntries(
  Object.entries(SETTINGS).map(([key, setting]) => [key, setting.default]),
) as Settings;

/** A variable outside its limits: the message names it and says what it may hold. */
export class SettingError extends Error {
  constructor(setting: Setting<unknown>, raw: string) {
    super(`Некорректное значение ${setting.env}: «${raw}». Допустимо: ${setting.limits}.`);
    this.name = 'SettingError';
  }
}

/** The settings `env` gives; an unset or empty variable is its default. */
export function readSettings(env: NodeJS.ProcessEnv): Settings {
  const settings: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const raw = env[setting.env];
    if (raw === undefined || raw === '') {
      settings[key] = setting.default;
      continue;
    }
    const value = setting.read(raw);
    if (value === undefined) throw new SettingError(setting, raw);
    settings[key] = value;
  }
  return settings as Settings;
}

/** `--help`, and what a bad value is followed by. */
export function usageText(): string {
  const rows = Object.values(SETTINGS).map(
    (setting) =>
      `  ${setting.env.padEnd(26)}${setting.help}\n  ${''.padEnd(26)}(${setting.shown}; ${setting.limits})`,
  );
  return [
    'Использование: node dist/host/main.js [--dev] [--reset] [--controls] [--help]',
    '  --dev       горячая перезагрузка Vite вместо сборки',
    '  --reset     вернуть данные встроенной заглушки к исходным',
    '  --controls  включить управление заглушкой для тестов (/__control)',
    'Переменные окружения (по умолчанию; допустимо):',
    ...rows,
  ].join('\n');
}

/** The settings as host/app.ts's startShopServer takes them. */
export function shopOptions(settings: Settings) {
  return {
    port: settings.port,
    host: settings.host,
    apiTarget: settings.apiTarget,
    siteUrl: settings.siteUrl,
    dataTimeoutMs: settings.dataTimeoutMs,
    formTimeoutMs: settings.formTimeoutMs,
    sitemapTimeoutMs: settings.sitemapTimeoutMs,
    backendMaxSockets: settings.backendMaxSockets,
    backendMaxAnswerBytes: settings.backendMaxAnswerBytes,
    proxyTimeoutMs: settings.proxyTimeoutMs,
    publicAnswers: {
      freshMs: settings.catalogCacheFreshMs,
      staleMs: settings.catalogCacheStaleMs,
      maxEntries: settings.catalogCacheEntries,
    },
    pageCacheSeconds: settings.pageCacheSeconds,
    changes: {
      secret: settings.changeHookSecret,
      renewUrl: settings.pageRenewUrl,
      keptPagesFile: settings.keptPagesFile,
    },
    stopGraceMs: settings.stopGraceMs,
    timeZone: settings.timeZone,
    accessLog: settings.accessLog,
    metrics:
      settings.metricsPort === 'off'
        ? (false as const)
        : { port: metricsPortOf(settings), host: settings.metricsHost },
    serverTiming: settings.serverTiming,
    rumSample: settings.rumSample,
    images: {
      cacheDir: settings.imageCacheDir,
      cacheMaxBytes: settings.imageCacheMb * MB,
      maxSourceBytes: settings.imageSourceMb * MB,
      maxPixels: settings.imageMaxPixels,
      timeoutMs: settings.imageTimeoutMs,
      revalidateMs: settings.imageRevalidateMs,
      concurrency: settings.imageResizes,
      maxWaiting: settings.imageResizesWaiting,
    },
  };
}

/** METRICS_PORT, or PORT + 1000 (any free port for PORT=0, or past the last port). */
function metricsPortOf(settings: Settings): number {
  if (typeof settings.metricsPort === 'number') return settings.metricsPort;
  const port = settings.port + 1000;
  return settings.port === 0 || port > 65_535 ? 0 : port;
}

/** What startShopServer, the image route, the proxy and the agent fall back on. */
export const shopDefaults = shopOptions(settingDefaults);
