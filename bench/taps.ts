// Dead taps (issue 19): part of `npm run bench`; `npm run bench:taps` runs them alone against a
// production server of its own (in this process, with the embedded stub), in Chromium and then in
// Firefox ESR (issue 32). BENCH_TAPS_ENGINES=chromium or firefox runs one; BENCH_TAPS_DELAYS
// (e.g. `0,700`) fewer delays, for a quicker look. Writes reports/bench-dead-taps.json and .md
// (Firefox: bench-dead-taps-firefox.*). Target: no tap lost.
//
// On a mid-range phone over slow 4G the shop looks ready after the first paint but may ignore a
// tap until the app's code has taken the page over. Per control and route, and per delay: a fresh
// browser context (390x844), the page slowed to the phone (bench/lib/browsers.ts), opened; as soon
// as the control first shows (it has a box; scrolled into view if below the fold), the delay
// (+0 … +2000 ms) is waited, then ONE real tap at the centre of the control where it is then (a
// mouse click through the browser's input, which does not wait for the control to be ready). Then
// up to 4 s for the effect, judged by what the shopper or the backend notices:
//   - `В корзину` (the first one in view): the visitor's basket on the server holds the product;
//   - `/order`'s plus (the basket holds product 7 before the page opens): its amount went up;
//   - the cookie notice's `Продолжить`: the `cookieAccepted=true` cookie is set;
//   - the footer's theme toggle: the page's colour scheme is dark;
//   - the header's `Меню`: the menu is open;
//   - `Недоступно` on a sold-out product: the «Товар закончился» dialog is open;
//   - the search page's `Назад` (a search opened from /catalog): the page is /catalog;
//   - the search page's `Очистить поиск`: the address has no query and the field is empty.
// A tap before the app runs may post a plain HTML form (a page load follows): the checks read the
// server's basket and the browser's cookies first. Trials other than the notice's have accepted
// cookies already, so that the notice does not cover the control. A control that never shows
// within 20 s is an error, counted apart from the taps.
//
// Firefox: WebDriver BiDi has no network or CPU throttling. The slow 4G is a proxy in front of
// the shop instead (each request waits the latency, every answer's bytes share one link at the
// download rate); the CPU is NOT slowed, so a tap lost there is lost on a fast phone on a slow
// network. The controls census (tests/e2e/controls-census.test.ts: with JavaScript off every
// visible button works by itself) guards the cause of most dead taps; what is left is a race with
// the app's start on a slow phone, which only a timing run finds.
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { BrowserContext, Page } from 'puppeteer-core';
import { Agent, fetch } from 'undici';
import {
  type Engine,
  FIRST_VIEW_VIEWPORT,
  launchPhone,
  PHONE,
  throttlePhone,
} from './lib/browsers.ts';
import { visitorWithBasket } from '../tests/e2e/visitor-cookies.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { writeReport } from './lib/report.ts';
import { startBenchShop } from './lib/shop.ts';

export const TAP_DELAYS_MS = (process.env.BENCH_TAPS_DELAYS ?? '0,300,700,1200,2000')
  .split(',')
  .map((delay) => {
    const ms = Number(delay.trim());
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`BENCH_TAPS_DELAYS: bad delay ${delay}`);
    return ms;
  });
/** How long the effect of a tap may take. */
const EFFECT_MS = 4000;
/** A control that has not shown by then is an error, not a lost tap. */
const SHOW_TIMEOUT_MS = 20_000;
const POLL_MS = 50;
const EFFECT_POLL_MS = 200;
/** The product whose basket line /order's plus raises. */
const ORDER_PRODUCT = '7';
/** Where the search of the `Назад` row was opened from. */
const SEARCH_FROM = '/catalog';

type ControlKind =
  | 'basket'
  | 'order-plus'
  | 'cookie'
  | 'theme'
  | 'menu'
  | 'unavailable'
  | 'search-back'
  | 'search-clear';

interface TapRow {
  kind: ControlKind;
  control: string;
  route: string;
}

/** Each route's basket control, the shell's forms and menu on two pages, and the search's links. */
const TAP_ROWS: TapRow[] = [
  { kind: 'basket', control: '`В корзину`', route: '/' },
  { kind: 'basket', control: '`В корзину`', route: '/section/1' },
  { kind: 'basket', control: '`В корзину`', route: '/product/7' },
  { kind: 'basket', control: '`В корзину`', route: '/search?q=малина' },
  { kind: 'order-plus', control: 'plus of a basket line', route: '/order' },
  { kind: 'cookie', control: 'cookie notice `Продолжить`', route: '/' },
  { kind: 'cookie', control: 'cookie notice `Продолжить`', route: '/catalog' },
  { kind: 'theme', control: 'theme toggle', route: '/' },
  { kind: 'theme', control: 'theme toggle', route: '/catalog' },
  { kind: 'menu', control: '`Меню`', route: '/' },
  { kind: 'menu', control: '`Меню`', route: '/product/7' },
  // Product 5 has no stock in the stub.
  { kind: 'unavailable', control: '`Недоступно`', route: '/product/5' },
  {
    kind: 'search-back',
    control: 'search `Назад`',
    route: `/search?q=малина&from=${encodeURIComponent(SEARCH_FROM)}`,
  },
  { kind: 'search-clear', control: 'search `Очистить поиск`', route: '/search?q=малина' },
];

interface TapTrial {
  delay_ms: number;
  outcome: 'ok' | 'lost' | 'error';
  /** From navigation start until the control first showed. */
  shown_ms?: number;
  /** Whether the app had taken the page over (html[data-hydrated]) when the tap went out. */
  hydrated_at_tap?: boolean;
  disabled_at_tap?: boolean;
  /** False when another element was at the tap's point (something covered the control). */
  on_target?: boolean;
  effect_ms?: number;
  /** Whether the tap posted a form as a page load (the browser's own, without the app). */
  form_posted?: boolean;
  error?: string;
}

/** Where a control is now, as the page sees it. */
interface Spot {
  x: number;
  y: number;
  /** What the page has at (x, y) is the control or inside it. */
  onTarget: boolean;
  hydrated: boolean;
  disabled: boolean;
  /** For a basket control: the product's id. */
  productId?: string;
}

/**
 * Runs in the page (text, not a function: tsx would add helpers of its own to a function's
 * source, which the page does not have). Finds the trial's control, keeps it in
 * window.__deadTapTarget, scrolls it into view when it is not, and answers where it is; null
 * while it has not shown. Only reads and scrolls: the app's DOM is left as the server sent it.
 */
const LOCATE = `(kind) => {
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = window.innerHeight;
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility();
  };
  const findNew = () => {
    const buttons = Array.from(document.querySelectorAll('button'));
    const byText = (text) =>
      buttons.find((button) => button.textContent.trim() === text && shown(button));
    if (kind === 'basket') {
      return buttons.find((button) => {
        if (button.textContent.trim() !== 'В корзину' || !shown(button)) return false;
        const box = button.getBoundingClientRect();
        // Not a slide of a carousel parked beside the screen.
        return box.left >= 0 && box.right <= viewportWidth;
      });
    }
    if (kind === 'order-plus') {
      return buttons.find(
        (button) =>
          (button.getAttribute('aria-label') || '').startsWith('Увеличить количество') &&
          shown(button),
      );
    }
    if (kind === 'cookie') {
      const notice = document.querySelector('[role="region"][aria-label="Уведомление о cookie"]');
      return notice ? Array.from(notice.querySelectorAll('button')).find(
        (button) => button.textContent.trim() === 'Продолжить' && shown(button),
      ) : undefined;
    }
    if (kind === 'unavailable') return byText('Недоступно');
    const labelled = {
      theme: 'footer [aria-label="Переключить тему"]',
      menu: 'header [aria-label="Меню"]',
      'search-back': 'main [aria-label="Назад"]',
      'search-clear': 'main [aria-label="Очистить поиск"]',
    }[kind];
    return Array.from(document.querySelectorAll(labelled)).find(shown);
  };
  let target = window.__deadTapTarget;
  if (!target || !target.isConnected || !shown(target)) target = findNew();
  if (!target) return null;
  window.__deadTapTarget = target;
  let box = target.getBoundingClientRect();
  // The sticky dock at the bottom (price button, cookie notice) may cover the lowest part.
  // Sideways only if the control is not within the screen's width (inline 'nearest'): a shopper
  // scrolls down to the footer, not sideways. Centring sideways scrolled a page that was briefly
  // wider than the screen while loading (Firefox, /: 44 px) and, when it narrowed back, the
  // browser took the scroll back and the control moved under the tap.
  if (box.top < 0 || box.bottom > viewportHeight * 0.75 || box.left < 0 || box.right > viewportWidth) {
    target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    box = target.getBoundingClientRect();
  }
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  let productId;
  if (kind === 'basket') {
    const card = target.closest('[data-testid="product-card"]');
    const link = card && card.querySelector('a[href^="/product/"]');
    const own = /^\\/product\\/(\\d+)/.exec(location.pathname);
    const fromLink = link && /\\/product\\/(\\d+)/.exec(link.getAttribute('href'));
    productId = fromLink ? fromLink[1] : own ? own[1] : undefined;
  }
  return {
    x,
    y,
    onTarget: Boolean(hit && (hit === target || target.contains(hit))),
    hydrated: document.documentElement.hasAttribute('data-hydrated'),
    disabled: target.disabled === true || target.getAttribute('aria-disabled') === 'true',
    productId,
  };
}`;

/** What the page says, per kind of control, once its tap has done its work. */
const PAGE_EFFECT: Partial<Record<ControlKind, string>> = {
  theme: `document.documentElement.dataset.mantineColorScheme === 'dark'`,
  menu: `!!document.querySelector('[role="menu"][aria-label="Меню"]:popover-open')`,
  unavailable: `Array.from(document.querySelectorAll('dialog')).some((dialog) => (dialog.open || dialog.matches(':popover-open')) && dialog.textContent.includes('Товар закончился'))`,
  'search-clear': `!new URL(location.href).searchParams.has('q') && document.querySelector('main input[name="q"]')?.value === ''`,
};

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

const locate = (page: Page, kind: ControlKind) =>
  inPage<Spot>(page, `(${LOCATE})(${JSON.stringify(kind)})`);

/**
 * Checks the effect every EFFECT_POLL_MS until it shows or `deadline` passes. A check still under
 * way at the deadline (the page between documents, say) does not count: the window is strict.
 */
async function effectSeen(deadline: number, check: () => Promise<boolean>): Promise<boolean> {
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    const attempt = check().then(
      (seen) => ({ seen }),
      (error: unknown) => ({ error }),
    );
    const result = await Promise.race([attempt, sleep(left).then(() => 'late' as const)]);
    if (result === 'late') return false;
    if ('seen' in result) {
      if (result.seen) return true;
    } else if (!isNavigationError(result.error)) {
      throw result.error;
    }
    await sleep(Math.min(EFFECT_POLL_MS, Math.max(0, deadline - performance.now())));
  }
}

/**
 * Firefox's slow 4G: a reverse proxy to `target` on a free port of 127.0.0.1, the latency before
 * each request, and the answers' bytes paced through one shared link at the download rate.
 */
async function slowNetwork(target: string, atExit: AtExit): Promise<string> {
  const upstream = new URL(target);
  let linkFreeAt = performance.now();
  const server = createServer((incoming, outgoing) => {
    setTimeout(() => {
      // A request the page gave up during the latency is not sent on.
      if (outgoing.destroyed) return;
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
          // No pooled sockets to the shop: none stays open to hold its close up at the end.
          agent: false,
        },
        async (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          try {
            for await (const chunk of answer as AsyncIterable<Buffer>) {
              for (let at = 0; at < chunk.length; at += 4096) {
                const slice = chunk.subarray(at, at + 4096);
                const start = Math.max(performance.now(), linkFreeAt);
                linkFreeAt = start + (slice.length / PHONE.download_bytes_per_s) * 1000;
                await sleep(linkFreeAt - performance.now());
                if (outgoing.destroyed) return void answer.destroy();
                if (!outgoing.write(slice)) {
                  await Promise.race([once(outgoing, 'drain'), once(outgoing, 'close')]);
                }
              }
            }
            outgoing.end();
          } catch {
            outgoing.destroy();
          }
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      // A page left mid-answer: the shop's side goes too, or it would hold the shop's close up.
      outgoing.on('close', () => forwarded.destroy());
      incoming.pipe(forwarded);
    }, PHONE.latency_ms);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  atExit(async () => {
    server.closeAllConnections();
    server.close();
  });
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The bench's own requests to the shop, on sockets closed at the end (none holds its close up). */
const direct = new Agent({ keepAliveTimeout: 10 });

type Basket = Record<string, { amount?: number } | undefined>;

/** The visitor's basket as the server has it; null while the browser has no session yet. */
async function serverBasket(context: BrowserContext, shop: string): Promise<Basket | null> {
  const cookies = await context.cookies();
  // Without a session the basket is empty; asking would start a session the page does not know.
  if (!cookies.some((cookie) => cookie.name === 'sessionid')) return null;
  const response = await fetch(`${shop}/api/catalog/basket`, {
    headers: { cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; ') },
    dispatcher: direct,
  });
  if (!response.ok) throw new Error(`basket answered ${response.status}`);
  return (await response.json()) as Basket;
}

/** A visitor whose basket holds product 7 (added by the basket form), given to the browser. */
async function basketWithLine(context: BrowserContext, shop: string): Promise<number> {
  for (const pair of (await visitorWithBasket(shop, [ORDER_PRODUCT])).split('; ')) {
    const at = pair.indexOf('=');
    await context.setCookie({
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      domain: '127.0.0.1',
      path: '/',
    });
  }
  return (await serverBasket(context, shop))?.[ORDER_PRODUCT]?.amount ?? 0;
}

async function tapOnce(
  context: BrowserContext,
  engine: Engine,
  shop: string,
  front: string,
  row: TapRow,
  delay: number,
  external: Set<string>,
): Promise<TapTrial> {
  const page = await context.newPage();
  await page.setViewport(FIRST_VIEW_VIEWPORT);
  let formPosted = false;
  const origin = new URL(front).origin;
  // Requests leaving the machine are noted (a healthy page makes none), not intercepted:
  // intercepting every request would slow the very page load that is measured.
  page.on('request', (request) => {
    const url = request.url();
    if (/^(https?|wss?):/.test(url) && new URL(url).origin !== origin) external.add(url);
    if (request.isNavigationRequest() && request.method() === 'POST') formPosted = true;
  });
  if (row.kind !== 'cookie') {
    await context.setCookie({
      name: 'cookieAccepted',
      value: 'true',
      domain: '127.0.0.1',
      path: '/',
    });
  }
  const amountBefore = row.kind === 'order-plus' ? await basketWithLine(context, shop) : Infinity;
  if (engine === 'chromium') await throttlePhone(page);

  const navigationStart = performance.now();
  // Not awaited: the control may show (and be tapped) long before `load`.
  const navigation = page
    .goto(`${front}${row.route}`, { waitUntil: 'load', timeout: SHOW_TIMEOUT_MS })
    .catch((error: unknown) => error);
  let spot: Spot | null = null;
  while (!spot) {
    if (performance.now() - navigationStart > SHOW_TIMEOUT_MS) {
      const failed = await navigation;
      const error =
        failed instanceof Error ? message(failed) : `not shown in ${SHOW_TIMEOUT_MS} ms`;
      return { delay_ms: delay, outcome: 'error', error };
    }
    spot = await locate(page, row.kind);
    if (!spot) await sleep(POLL_MS);
  }
  const shownAt = performance.now();
  const productId = spot.productId ?? '';
  if (row.kind === 'basket' && !productId) {
    return { delay_ms: delay, outcome: 'error', error: 'no product id near `В корзину`' };
  }
  await sleep(Math.max(0, shownAt + delay - performance.now()));
  // Where the control is now (the page may have moved it), as a shopper's finger would find it.
  const now = (await locate(page, row.kind)) ?? spot;
  await page.mouse.click(now.x, now.y);
  const tappedAt = performance.now();

  const check = async (): Promise<boolean> => {
    switch (row.kind) {
      case 'basket':
        return Boolean((await serverBasket(context, shop))?.[productId]);
      case 'order-plus':
        return ((await serverBasket(context, shop))?.[ORDER_PRODUCT]?.amount ?? 0) > amountBefore;
      case 'cookie':
        return (await context.cookies()).some(
          (cookie) => cookie.name === 'cookieAccepted' && cookie.value === 'true',
        );
      case 'search-back':
        return new URL(page.url()).pathname === SEARCH_FROM;
      default:
        return Boolean(await inPage<boolean>(page, PAGE_EFFECT[row.kind] ?? 'false'));
    }
  };
  const ok = await effectSeen(tappedAt + EFFECT_MS, check);
  return {
    delay_ms: delay,
    outcome: ok ? 'ok' : 'lost',
    shown_ms: Math.round(shownAt - navigationStart),
    hydrated_at_tap: now.hydrated,
    disabled_at_tap: now.disabled,
    on_target: now.onTarget,
    ...(ok ? { effect_ms: Math.round(performance.now() - tappedAt) } : {}),
    form_posted: formPosted,
  };
}

export type DeadTapFigures = Awaited<ReturnType<typeof benchDeadTaps>>;

/** Every row at every delay in `engine`: one fresh, slowed page load and one tap each. */
export async function benchDeadTaps(engine: Engine, shopUrl: string, atExit: AtExit) {
  const started = performance.now();
  const shop = shopUrl.replace(/\/+$/, '');
  const front = engine === 'firefox' ? await slowNetwork(shop, atExit) : shop;
  const browser = await launchPhone(engine);
  atExit(() => browser.close());
  // One unthrottled, unmeasured load of each route: the server's first renders and the resized
  // pictures of a just-started server would otherwise slow the first trials only.
  const warm = await browser.createBrowserContext();
  const warmPage = await warm.newPage();
  for (const route of new Set(TAP_ROWS.map((row) => row.route))) {
    await warmPage.goto(`${shop}${route}`, { waitUntil: 'load', timeout: SHOW_TIMEOUT_MS });
  }
  await warm.close();

  const rows = TAP_ROWS.map((row) => ({ ...row, trials: [] as TapTrial[] }));
  const external = new Set<string>();
  // Delay by delay over all rows, so a burst of load elsewhere does not hit one row only.
  for (const delay of TAP_DELAYS_MS) {
    for (const row of rows) {
      const context = await browser.createBrowserContext();
      const trial = await tapOnce(context, engine, shop, front, row, delay, external).catch(
        (error: unknown): TapTrial => ({
          delay_ms: delay,
          outcome: 'error',
          error: message(error),
        }),
      );
      await context.close().catch(() => {});
      row.trials.push(trial);
      console.error(
        `dead taps (${engine}) +${delay} ms ${row.control} ${row.route}: ${trial.outcome}${trial.error ? ` (${trial.error})` : ''}`,
      );
    }
  }
  await browser.close();
  const trials = rows.flatMap((row) => row.trials);
  const lost = trials.filter((trial) => trial.outcome === 'lost').length;
  const errors = trials.filter((trial) => trial.outcome === 'error').length;
  return {
    engine,
    delays_ms: TAP_DELAYS_MS,
    throttling: engine === 'firefox' ? { ...PHONE, cpu_slowdown: 1 } : PHONE,
    effect_ms: EFFECT_MS,
    rows,
    taps: trials.length - errors,
    lost,
    errors,
    external: [...external],
    // An error is no measurement, and a request off the machine no healthy page: missed too.
    met: lost === 0 && errors === 0 && external.size === 0,
    duration_s: (performance.now() - started) / 1000,
  };
}

/** The figures as Markdown: the issue's table, then the totals and what the lost taps met. */
export function deadTapsTable(figures: DeadTapFigures): string {
  const { throttling: slowed } = figures;
  const cell = (trial: TapTrial | undefined) =>
    trial?.outcome === 'ok' ? 'ok' : trial?.outcome === 'lost' ? '**lost**' : 'error';
  const lostTrials = figures.rows.flatMap((row) => row.trials.filter((t) => t.outcome === 'lost'));
  const where = (trial: TapTrial, row: TapRow) =>
    `${row.control} on \`${row.route}\` at +${trial.delay_ms} ms`;
  const listed = (
    test: (trial: TapTrial) => boolean,
    say: (trial: TapTrial) => string = () => '',
  ) =>
    figures.rows.flatMap((row) =>
      row.trials.filter(test).map((trial) => where(trial, row) + say(trial)),
    );
  const covered = listed((trial) => trial.on_target === false);
  const errors = listed(
    (trial) => trial.outcome === 'error',
    (trial) => `: ${trial.error}`,
  );
  const posted = listed((trial) => trial.outcome === 'ok' && trial.form_posted === true);
  return [
    `One real tap per fresh page load in ${figures.engine} (CPU ${slowed.cpu_slowdown}x slower, ${slowed.latency_ms} ms latency, ${(slowed.download_bytes_per_s * 8) / 1e6} Mbps down), the given time after the control first shows; \`ok\` when the shopper or the server sees its effect within ${figures.effect_ms / 1000} s.`,
    '',
    `| Control | Route | ${figures.delays_ms.map((delay) => `+${delay} ms`).join(' | ')} |`,
    `| --- | --- |${figures.delays_ms.map(() => ' :---: |').join('')}`,
    ...figures.rows.map(
      (row) =>
        `| ${row.control} | \`${row.route}\` | ${figures.delays_ms.map((delay) => cell(row.trials.find((trial) => trial.delay_ms === delay))).join(' | ')} |`,
    ),
    '',
    `**${figures.lost} of ${figures.taps} taps lost** (target 0: ${figures.met ? 'pass' : '**miss**'}); ${figures.duration_s.toFixed(0)} s.`,
    lostTrials.length > 0
      ? `\nOf the lost taps, ${lostTrials.filter((t) => t.hydrated_at_tap === false).length} went out before the app had taken the page over, ${lostTrials.filter((t) => t.hydrated_at_tap && t.disabled_at_tap).length} on a disabled control after it.`
      : '',
    posted.length > 0 ? `\nTaps that posted the page's form: ${posted.join('; ')}.` : '',
    covered.length > 0
      ? `\nTapped where something covered the control: ${covered.join('; ')}.`
      : '',
    errors.length > 0 ? `\n**${errors.length} trial(s) failed**: ${errors.join('; ')}.` : '',
    figures.external.length > 0
      ? `\n**Requests off the machine:** ${figures.external.join(', ')}`
      : '',
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** BENCH_TAPS_ENGINES: `chromium`, `firefox` or both (the default), comma-separated. */
function enginesToRun(): Engine[] {
  const names = (process.env.BENCH_TAPS_ENGINES ?? 'chromium,firefox').split(',');
  return names.map((name) => {
    const engine = name.trim().toLowerCase();
    if (engine !== 'chromium' && engine !== 'firefox') {
      throw new Error(`BENCH_TAPS_ENGINES: unknown engine ${engine} (chromium, firefox)`);
    }
    return engine;
  });
}

if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    const engines = enginesToRun();
    const shop = await startBenchShop(atExit);
    const all: DeadTapFigures[] = [];
    for (const engine of engines) {
      const figures = await benchDeadTaps(engine, shop.url, atExit);
      const name = engine === 'firefox' ? 'bench-dead-taps-firefox' : 'bench-dead-taps';
      await writeReport(name, `Dead taps in ${engine}`, figures, deadTapsTable(figures));
      all.push(figures);
    }
    return all.every((figures) => figures.met);
  });
}
