// Dead taps (issue 19; the docs give the knobs): per control, route and delay, a fresh phone
// context opens the route, waits the delay once the control shows, then makes ONE real click at
// its centre; `ok` when the effect shows within 4 s. A tap before the app runs may post a plain
// form, so the basket is read on the server. Firefox: WebDriver BiDi cannot throttle, so slow 4G
// is a proxy and the CPU is NOT slowed. tests/e2e/controls-census.test.ts guards most causes of a
// dead tap; a race with the app's start is what only a timing run finds.
import { request as httpRequest } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { parseCookie } from 'cookie';
import { type Engine, launchPhone, PHONE, throttlePhone } from './lib/browsers.ts';
import { FIRST_VIEW_VIEWPORT } from '../tests/e2e/first-view.ts';
import { httpBackend } from '../tests/e2e/fault-backends.ts';
import { visitorWithBasket } from '../tests/e2e/visitor-cookies.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { mark, writeReport } from './lib/report.ts';
import { startBenchShop } from './lib/shop.ts';
import { Visitor } from './lib/visitor.ts';

export const TAP_DELAYS_MS = (process.env.BENCH_TAPS_DELAYS ?? '0,300,700,1200,2000')
  .split(',')
  .map(Number);
if (!TAP_DELAYS_MS.every((ms) => ms >= 0)) throw new Error('BENCH_TAPS_DELAYS: e.g. 0,700');
const EFFECT_MS = 4000;
const SHOW_TIMEOUT_MS = 20_000;
const POLL_MS = 50;

const SEARCH = '/search?q=малина';

/** Each control's effect: what the page says after the tap, `basket` (the server's basket holds
 * more) or `cookie` (the notice's). Other trials accept cookies first: the notice covers nothing. */
const CONTROLS: {
  routes: string[];
  selector: string;
  text?: string;
  effect: string;
}[] = [
  {
    routes: ['/', '/section/1', '/product/7', SEARCH],
    selector: 'button',
    text: 'В корзину',
    effect: 'basket',
  },
  { routes: ['/order'], selector: 'button[aria-label^="Увеличить количество"]', effect: 'basket' },
  {
    routes: ['/', '/catalog'],
    selector: '[role="region"][aria-label="Уведомление о cookie"] button',
    text: 'Продолжить',
    effect: 'cookie',
  },
  {
    routes: ['/', '/catalog'],
    selector: 'footer [aria-label="Переключить тему"]',
    effect: `document.documentElement.dataset.mantineColorScheme === 'dark'`,
  },
  {
    routes: ['/', '/product/7'],
    selector: 'header [aria-label="Меню"]',
    effect: `!!document.querySelector('[role="menu"][aria-label="Меню"]:popover-open')`,
  },
  // Product 5 has no stock in the stub.
  {
    routes: ['/product/5'],
    selector: 'button',
    text: 'Недоступно',
    effect: `[...document.querySelectorAll('dialog')].some((dialog) => (dialog.open || dialog.matches(':popover-open')) && dialog.textContent.includes('Товар закончился'))`,
  },
  {
    routes: [`${SEARCH}&from=${encodeURIComponent('/catalog')}`],
    selector: 'main [aria-label="Назад"]',
    effect: `location.pathname === '/catalog'`,
  },
  {
    routes: [SEARCH],
    selector: 'main [aria-label="Очистить поиск"]',
    effect: `!new URL(location.href).searchParams.has('q') && document.querySelector('main input[name="q"]')?.value === ''`,
  },
];
type Control = Omit<(typeof CONTROLS)[number], 'routes'>;
/** A control's name in the table: its text, or its aria-label. */
const labelOf = ({ text, selector }: Control) =>
  `\`${text ?? /aria-label\^?="([^"]+)"/.exec(selector)?.[1]}\``;

interface TapTrial {
  delay_ms: number;
  outcome: 'ok' | 'lost' | 'error';
  /** Whether the app had taken the page over (html[data-hydrated]) when the tap went out. */
  hydrated_at_tap?: boolean;
  error?: string;
}

/**
 * In the page (text: tsx adds helpers to a function's source): where the control is (by its text,
 * wholly on the screen: not a carousel's parked slide), scrolled above the sticky dock; null while
 * not shown. Sideways only 'nearest': centring scrolled a page briefly wider than the screen while
 * loading (Firefox, /: 44 px), and the control moved from under the tap when it narrowed back.
 */
const LOCATE = `([selector, text]) => {
  const width = document.documentElement.clientWidth;
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility() &&
      (!text || (element.textContent.trim() === text && box.left >= 0 && box.right <= width));
  };
  let target = window.__deadTapTarget;
  if (!target || !target.isConnected || !shown(target)) {
    target = [...document.querySelectorAll(selector)].find(shown);
  }
  if (!target) return null;
  window.__deadTapTarget = target;
  let box = target.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight * 0.75 || box.left < 0 || box.right > width) {
    target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    box = target.getBoundingClientRect();
  }
  const hydrated = document.documentElement.hasAttribute('data-hydrated');
  return { x: box.left + box.width / 2, y: box.top + box.height / 2, hydrated };
}`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const message = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** The page went to another document, or is going: try again on the next one. */
const isNavigationError = (error: unknown) =>
  /Execution context was destroyed|navigation|Target closed|has been closed|Cannot find context|no such frame|Frame detached|realm/i.test(
    message(error),
  );

/** Runs `expression` in the page; null while the page is between documents (or has none yet). */
async function inPage<T>(page: Page, expression: string): Promise<T | null> {
  try {
    return (await page.evaluate(`document.documentElement && (${expression})`)) as T | null;
  } catch (error) {
    if (isNavigationError(error)) return null;
    throw error;
  }
}

/** Firefox's slow 4G: a proxy to `target` with the latency before each request, and every
 * answer's bytes paced through one shared link at the download rate. */
async function slowNetwork(target: string, atExit: AtExit): Promise<string> {
  const { hostname: host, port } = new URL(target);
  let linkFreeAt = 0;
  const proxy = await httpBackend((incoming, outgoing) => {
    setTimeout(() => {
      // No pooled sockets to the shop: none stays open to hold its close up at the end.
      const { method, url: path, headers } = incoming;
      const options = { host, port, method, path, headers, agent: false };
      const forwarded = httpRequest(options, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        const paced = async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            linkFreeAt = Math.max(performance.now(), linkFreeAt);
            linkFreeAt += (chunk.length / PHONE.download) * 1000;
            await sleep(linkFreeAt - performance.now());
            yield chunk;
          }
        };
        pipeline(answer, paced, outgoing).catch(() => outgoing.destroy());
      });
      forwarded.on('error', () => outgoing.destroy());
      // A page left mid-answer: the shop's side goes too, or it would hold the shop's close up.
      outgoing.on('close', () => forwarded.destroy());
      incoming.pipe(forwarded);
    }, PHONE.latency);
  });
  atExit(proxy.close);
  return proxy.url;
}

/** How much the visitor's basket holds on the server (0 while the browser has no session). */
async function basketAmount(context: BrowserContext, shop: string): Promise<number> {
  const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  // Without a session the basket is empty; asking would start a session the page does not know.
  if (!cookies.sessionid) return 0;
  const visitor = new Visitor(new URL(shop), SHOW_TIMEOUT_MS, cookies);
  const answer = await visitor.view('/api/catalog/basket', { Accept: 'application/json' });
  if (answer.status !== 200) throw new Error(`basket answered ${answer.status ?? 'nothing'}`);
  const lines = Object.values(JSON.parse(answer.body) as Record<string, { amount?: number }>);
  return lines.reduce((sum, line) => sum + (line.amount ?? 0), 0);
}

/** One fresh, slowed page load of `route`, one tap `delay` ms after the control shows. */
async function tapOnce(
  context: BrowserContext,
  engine: Engine,
  [shop, front]: [string, string],
  { control, route }: { control: Control; route: string },
  delay: number,
  external: Set<string>,
): Promise<TapTrial> {
  const page = await context.newPage();
  await page.setViewport(FIRST_VIEW_VIEWPORT);
  // Requests leaving the machine are noted (a healthy page makes none), not intercepted:
  // intercepting every request would slow the very page load that is measured.
  page.on('request', (request) => {
    const url = request.url();
    if (/^(https?|wss?):/.test(url) && new URL(url).origin !== front) external.add(url);
  });
  const cookies = {
    ...(control.effect === 'cookie' ? {} : { cookieAccepted: 'true' }),
    ...(route === '/order' ? parseCookie(await visitorWithBasket(shop, ['7'])) : {}),
  };
  for (const [name, value = ''] of Object.entries(cookies)) {
    await context.setCookie({ name, value, domain: '127.0.0.1', path: '/' });
  }
  const amountBefore = await basketAmount(context, shop);
  if (engine === 'chromium') await throttlePhone(page);

  const { selector, text = '', effect } = control;
  const locate = () =>
    inPage<{ x: number; y: number; hydrated: boolean }>(
      page,
      `(${LOCATE})(${JSON.stringify([selector, text])})`,
    );
  const navigationStart = performance.now();
  // Not awaited: the control may show (and be tapped) long before `load`.
  const navigation = page
    .goto(`${front}${route}`, { timeout: SHOW_TIMEOUT_MS })
    .catch((error: unknown) => error);
  let spot = await locate();
  for (; !spot; spot = await locate()) {
    if (performance.now() - navigationStart > SHOW_TIMEOUT_MS) {
      const failed = await navigation;
      throw failed instanceof Error ? failed : new Error(`not shown in ${SHOW_TIMEOUT_MS} ms`);
    }
    await sleep(POLL_MS);
  }
  await sleep(delay);
  // Where the control is now (the page may have moved it), as a shopper's finger would find it.
  const now = (await locate()) ?? spot;
  await page.mouse.click(now.x, now.y);
  const deadline = performance.now() + EFFECT_MS;

  const check = async () => {
    if (effect === 'basket') return (await basketAmount(context, shop)) > amountBefore;
    if (effect !== 'cookie') return Boolean(await inPage<boolean>(page, effect));
    return (await context.cookies()).some((c) => c.name === 'cookieAccepted' && c.value === 'true');
  };
  // Checked until seen (inPage waits out a page load); a check that ends after the window does
  // not count: the window is strict.
  let ok = false;
  while (!ok && performance.now() < deadline) {
    ok = (await check()) && performance.now() <= deadline;
    if (!ok) await sleep(4 * POLL_MS);
  }
  return { delay_ms: delay, outcome: ok ? 'ok' : 'lost', hydrated_at_tap: now.hydrated };
}

export type DeadTapFigures = Awaited<ReturnType<typeof benchDeadTaps>>;

/** Every row at every delay in `engine`: one fresh, slowed page load and one tap each. */
export async function benchDeadTaps(engine: Engine, shopUrl: string, atExit: AtExit) {
  const started = performance.now();
  const shop = shopUrl.replace(/\/+$/, '');
  const front = engine === 'firefox' ? await slowNetwork(shop, atExit) : shop;
  const browser: Browser = await launchPhone(engine);
  atExit(() => browser.close());
  // One unthrottled, unmeasured load of each route: the server's first renders and the resized
  // pictures of a just-started server would otherwise slow the first trials only.
  const warm = await (await browser.createBrowserContext()).newPage();
  for (const route of new Set(CONTROLS.flatMap(({ routes }) => routes))) {
    await warm.goto(`${shop}${route}`, { timeout: SHOW_TIMEOUT_MS });
  }
  await warm.browserContext().close();

  const rows = CONTROLS.flatMap(({ routes, ...control }) =>
    routes.map((route) => ({ label: labelOf(control), control, route, trials: [] as TapTrial[] })),
  );
  const external = new Set<string>();
  // Delay by delay over all rows, so a burst of load elsewhere does not hit one row only.
  for (const delay of TAP_DELAYS_MS) {
    for (const row of rows) {
      const context = await browser.createBrowserContext();
      const trial = await tapOnce(context, engine, [shop, front], row, delay, external).catch(
        (error: unknown): TapTrial => ({
          delay_ms: delay,
          outcome: 'error',
          error: message(error),
        }),
      );
      await context.close().catch(() => {});
      row.trials.push(trial);
      console.error(`dead taps ${engine} +${delay} ms ${row.label} ${row.route}: ${trial.outcome}`);
    }
  }
  await browser.close();
  const trials = rows.flatMap((row) => row.trials);
  const lost = trials.filter((trial) => trial.outcome === 'lost');
  const errors = trials.filter((trial) => trial.outcome === 'error').length;
  return {
    engine,
    delays_ms: TAP_DELAYS_MS,
    throttling: engine === 'firefox' ? { ...PHONE, cpu_slowdown: 1 } : PHONE,
    rows,
    taps: trials.length - errors,
    lost: lost.length,
    lost_before_app: lost.filter((trial) => trial.hydrated_at_tap === false).length,
    errors,
    external: [...external],
    // An error is no measurement, and a request off the machine no healthy page: missed too.
    met: lost.length === 0 && errors === 0 && external.size === 0,
    duration_s: (performance.now() - started) / 1000,
  };
}

/** The issue's table of `ok`/`lost`, the totals, and what went wrong besides. */
export function deadTapsTable(figures: DeadTapFigures): string {
  const { throttling: slowed, delays_ms: delays } = figures;
  const cell = (trial?: TapTrial) =>
    ({ ok: 'ok', lost: '**lost**', error: `error: ${trial?.error}` })[trial?.outcome ?? 'error'];
  return [
    `One real tap per fresh page load in ${figures.engine} (CPU ${slowed.cpu_slowdown}x slower, ${slowed.latency} ms latency, ${(slowed.download * 8) / 1e6} Mbps down), the given time after the control first shows; \`ok\` when the shopper or the server sees its effect within ${EFFECT_MS / 1000} s.`,
    '',
    `| Control | Route | ${delays.map((delay) => `+${delay} ms`).join(' | ')} |`,
    `| --- | --- |${delays.map(() => ' :---: |').join('')}`,
    ...figures.rows.map(
      (row) =>
        `| ${row.label} | \`${row.route}\` | ${delays.map((delay) => cell(row.trials.find((trial) => trial.delay_ms === delay))).join(' | ')} |`,
    ),
    '',
    `**${figures.lost} of ${figures.taps} taps lost** (target 0, no error, no request off the machine: ${mark(figures.met)}), ${figures.lost_before_app} of them before the app had taken the page over; ${figures.errors} error(s); requests off the machine: ${figures.external.join(', ') || 'none'}; ${figures.duration_s.toFixed(0)} s.`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    const engines = (process.env.BENCH_TAPS_ENGINES ?? 'chromium,firefox').split(',');
    if (!engines.every((engine) => engine === 'chromium' || engine === 'firefox')) {
      throw new Error('BENCH_TAPS_ENGINES: chromium, firefox or both');
    }
    const shop = await startBenchShop(atExit);
    let met = true;
    for (const engine of engines) {
      const figures = await benchDeadTaps(engine, shop.url, atExit);
      const name = engine === 'firefox' ? 'bench-dead-taps-firefox' : 'bench-dead-taps';
      await writeReport(name, `Dead taps in ${engine}`, figures, deadTapsTable(figures));
      met &&= figures.met;
    }
    return met;
  });
}
