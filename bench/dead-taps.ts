// Dead taps (issue 19), part of `npm run bench`; `npm run bench:taps` (bench/taps.ts) runs it
// alone (it builds first and starts its own production server with the embedded stub on
// 127.0.0.1), in Chromium and then in Firefox (bench/dead-taps-firefox.ts).
//
// On a mid-range phone over slow 4G the shop looks ready after the first paint but may ignore a
// tap until the app's code has taken the page over. Per control and route, and per delay: a fresh
// browser context (390x844, Russian locale, light theme, empty cache), its page throttled through
// the DevTools protocol before navigation (CPU 4x slower; 150 ms latency, 1.6 Mbps down, 750 kbps
// up), the page opened; as soon as the control first shows (it has a box; scrolled into view if
// it is below the fold), the delay (+0 … +2000 ms) is waited, then ONE real tap at the centre of
// the control's box where it is then (a mouse click through the browser's input, not
// Playwright's click, which would wait until the control is ready). Then up to 4 s for the effect,
// judged by what the shopper or the backend notices, not by the app's internals:
//   - `В корзину` (the first one in view): the visitor's basket on the server holds the product;
//   - `/order`'s plus (the basket holds product 7 before the page opens): its amount went up;
//   - the cookie notice's `Продолжить`: the `cookieAccepted=true` cookie is set;
//   - the footer's theme toggle: the page's colour scheme is dark;
//   - the header's `Меню`: the menu is open;
//   - `Недоступно` on a sold-out product: the «Товар закончился» dialog is open;
//   - the search page's `Назад` (a search opened from /catalog): the page is /catalog;
//   - the search page's `Очистить поиск`: the address has no query and the field is empty.
// A tap before the app runs may post a plain HTML form (a full page load follows): the checks
// read the server's basket and the browser's cookies, and the page only defensively. Contexts of
// the basket and theme trials have accepted cookies already, so that the notice does not cover
// the control. A control that never shows within 20 s is an error, counted apart from the taps.
// Target: no tap lost.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { firstVisitorContext } from './first-view.ts';

/**
 * Issue 19: how long after the control shows the shopper taps. BENCH_TAPS_DELAYS (e.g. `0,700`)
 * measures fewer, for a quicker look; the bench's figures are those of all five.
 */
export const TAP_DELAYS_MS = process.env.BENCH_TAPS_DELAYS
  ? process.env.BENCH_TAPS_DELAYS.split(',').map((delay) => {
      const ms = Number(delay.trim());
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`BENCH_TAPS_DELAYS: bad delay ${delay}`);
      return ms;
    })
  : [0, 300, 700, 1200, 2000];
/** Mid-range phone on slow 4G, as Lighthouse's mobile preset (applied, not simulated). */
export const TAP_THROTTLING = {
  cpu_slowdown: 4,
  latency_ms: 150,
  download_bytes_per_s: 200_000,
  upload_bytes_per_s: 93_750,
};
/** How long the effect of a tap may take. */
export const EFFECT_MS = 4000;
/** A control that has not shown by then is an error, not a lost tap. */
export const SHOW_TIMEOUT_MS = 20_000;
export const POLL_MS = 50;
const EFFECT_POLL_MS = 200;
/** The product whose basket line /order's plus raises. */
export const ORDER_PRODUCT = 7;
/** Where the search of the `Назад` rows was opened from. */
export const SEARCH_FROM = '/catalog';

export type ControlKind =
  | 'basket'
  | 'order-plus'
  | 'cookie'
  | 'theme'
  | 'menu'
  | 'unavailable'
  | 'search-back'
  | 'search-clear';

export interface TapRow {
  kind: ControlKind;
  control: string;
  route: string;
}

/**
 * The rows of the table: each route's basket control, the shell's two forms and its menu on two
 * pages, the sold-out product's `Недоступно` (product 5 has no stock in the stub) and the search
 * page's links.
 */
export const TAP_ROWS: TapRow[] = [
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
  { kind: 'unavailable', control: '`Недоступно`', route: '/product/5' },
  {
    kind: 'search-back',
    control: 'search `Назад`',
    route: `/search?q=малина&from=${encodeURIComponent(SEARCH_FROM)}`,
  },
  { kind: 'search-clear', control: 'search `Очистить поиск`', route: '/search?q=малина' },
];

export type TapOutcome = 'ok' | 'lost' | 'error';

export interface TapTrial {
  delay_ms: number;
  outcome: TapOutcome;
  /** From navigation start until the control first showed. */
  shown_ms?: number;
  /** Whether the app had taken the page over (html[data-hydrated]) when the tap went out. */
  hydrated_at_tap?: boolean;
  /** Whether the control was disabled (or aria-disabled) when the tap went out. */
  disabled_at_tap?: boolean;
  /** False when another element was at the tap's point (something covered the control). */
  on_target?: boolean;
  /** From the tap until the effect was seen. */
  effect_ms?: number;
  /** Whether the tap posted a form as a page load (the browser's own, without the app). */
  form_posted?: boolean;
  error?: string;
}

export interface TapRowFigures extends TapRow {
  trials: TapTrial[];
}

export interface DeadTapFigures {
  delays_ms: number[];
  throttling: typeof TAP_THROTTLING;
  effect_ms: number;
  rows: TapRowFigures[];
  taps: number;
  lost: number;
  errors: number;
  target_lost: number;
  /** Requests the pages made to anywhere but the shop's own server; a healthy page makes none. */
  external: string[];
  met: boolean;
  duration_s: number;
}

/** Where a control is now, as the page sees it. */
export interface Spot {
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
export const LOCATE = `(kind) => {
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = window.innerHeight;
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility();
  };
  const findNew = () => {
    const buttons = Array.from(document.querySelectorAll('button'));
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
      if (!notice) return undefined;
      return Array.from(notice.querySelectorAll('button')).find(
        (button) => button.textContent.trim() === 'Продолжить' && shown(button),
      );
    }
    if (kind === 'unavailable') {
      return buttons.find((button) => button.textContent.trim() === 'Недоступно' && shown(button));
    }
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
  // browser took the scroll back and the control moved under the tap (issue: Firefox theme tap).
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const message = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** The page went to another document, or is going: try again on the next one. */
export const isNavigationError = (error: unknown) =>
  /Execution context was destroyed|navigation|Target page, context or browser has been closed|Cannot find context|no such frame|Frame detached|realm/i.test(
    message(error),
  );

/** Where the control is; null while it has not shown (or the page is between documents). */
async function locate(page: Page, kind: ControlKind): Promise<Spot | null> {
  try {
    return (await page.evaluate(`(${LOCATE})(${JSON.stringify(kind)})`)) as Spot | null;
  } catch (error) {
    if (isNavigationError(error)) return null;
    throw error;
  }
}

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: TAP_THROTTLING.latency_ms,
    downloadThroughput: TAP_THROTTLING.download_bytes_per_s,
    uploadThroughput: TAP_THROTTLING.upload_bytes_per_s,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: TAP_THROTTLING.cpu_slowdown });
}

type Basket = Record<string, { amount?: number } | undefined>;

/** The visitor's basket as the server has it; null while the context has no session yet. */
async function serverBasket(context: BrowserContext, baseUrl: string): Promise<Basket | null> {
  // Without a session the basket is empty; asking would start a session the page does not know.
  const cookies = await context.cookies(baseUrl);
  if (!cookies.some((cookie) => cookie.name === 'sessionid')) return null;
  const response = await context.request.get(`${baseUrl}/api/catalog/basket`);
  if (!response.ok()) throw new Error(`basket answered ${response.status()}`);
  return (await response.json()) as Basket;
}

/** Gives the context a session whose basket holds product 7; answers its amount. */
async function basketWithLine(context: BrowserContext, baseUrl: string): Promise<number> {
  const first = await context.request.get(`${baseUrl}/api/catalog/basket`);
  if (!first.ok()) throw new Error(`basket answered ${first.status()}`);
  const csrf = (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'csrftoken');
  if (!csrf) throw new Error('the stub set no csrftoken cookie');
  const put = await context.request.put(`${baseUrl}/api/catalog/basket/${ORDER_PRODUCT}`, {
    data: { amount: 1 },
    headers: { 'X-CSRFToken': csrf.value },
  });
  if (!put.ok()) throw new Error(`basket PUT answered ${put.status()}: ${await put.text()}`);
  const basket = await serverBasket(context, baseUrl);
  const amount = basket?.[String(ORDER_PRODUCT)]?.amount;
  if (typeof amount !== 'number') throw new Error('the basket line of product 7 is missing');
  return amount;
}

/**
 * Checks the effect every EFFECT_POLL_MS until it shows or `deadline` passes. A check still under
 * way at the deadline (the page between documents, say) does not count: the window is strict.
 */
export async function effectSeen(
  deadline: number,
  check: () => Promise<boolean>,
): Promise<boolean> {
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

async function tapOnce(
  browser: Browser,
  baseUrl: string,
  row: TapRow,
  delay: number,
  external: Set<string>,
): Promise<TapTrial> {
  const context = await firstVisitorContext(browser);
  const origin = new URL(baseUrl).origin;
  try {
    // Requests leaving the machine are noted (a healthy page makes none), not intercepted:
    // intercepting every request would slow the very page load that is measured.
    context.on('request', (request) => {
      const url = request.url();
      if (/^(https?|wss?):/.test(url) && new URL(url).origin !== origin) external.add(url);
    });
    // Only the notice's own trials show it: elsewhere it would cover the lower part of the page.
    if (row.kind !== 'cookie') {
      await context.addCookies([{ name: 'cookieAccepted', value: 'true', url: baseUrl }]);
    }
    const amountBefore =
      row.kind === 'order-plus' ? await basketWithLine(context, baseUrl) : undefined;
    const page = await context.newPage();
    let formPosted = false;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.method() === 'POST') formPosted = true;
    });
    await throttle(context, page);

    const navigationStart = performance.now();
    // Not awaited: the control may show (and be tapped) long before `load`.
    const navigation = page
      .goto(`${baseUrl}${row.route}`, { waitUntil: 'commit', timeout: SHOW_TIMEOUT_MS })
      .catch((error: unknown) => error);
    let spot: Spot | null = null;
    while (!spot) {
      if (performance.now() - navigationStart > SHOW_TIMEOUT_MS) {
        const failed = await navigation;
        return {
          delay_ms: delay,
          outcome: 'error',
          error:
            failed instanceof Error ? message(failed) : `not shown within ${SHOW_TIMEOUT_MS} ms`,
        };
      }
      spot = await locate(page, row.kind);
      if (!spot) await sleep(POLL_MS);
    }
    const shownAt = performance.now();
    if (row.kind === 'basket' && !spot.productId) {
      return { delay_ms: delay, outcome: 'error', error: 'no product id near `В корзину`' };
    }
    const productId = spot.productId ?? '';
    await sleep(Math.max(0, shownAt + delay - performance.now()));
    // Where the control is now (the page may have moved it), as a shopper's finger would find it.
    const now = (await locate(page, row.kind)) ?? spot;
    await page.mouse.click(now.x, now.y);
    const tappedAt = performance.now();
    const deadline = tappedAt + EFFECT_MS;

    let check: () => Promise<boolean>;
    switch (row.kind) {
      case 'basket':
        check = async () => Boolean((await serverBasket(context, baseUrl))?.[productId]);
        break;
      case 'order-plus':
        check = async () => {
          const amount = (await serverBasket(context, baseUrl))?.[String(ORDER_PRODUCT)]?.amount;
          return typeof amount === 'number' && amount > (amountBefore ?? Infinity);
        };
        break;
      case 'cookie':
        check = async () =>
          (await context.cookies(baseUrl)).some(
            (cookie) => cookie.name === 'cookieAccepted' && cookie.value === 'true',
          );
        break;
      case 'theme':
        check = async () =>
          (await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)) ===
          'dark';
        break;
      case 'menu':
        check = () =>
          page.evaluate(() =>
            Boolean(document.querySelector('[role="menu"][aria-label="Меню"]:popover-open')),
          );
        break;
      case 'unavailable':
        check = () =>
          page.evaluate(() =>
            Array.from(document.querySelectorAll('dialog')).some(
              (dialog) =>
                (dialog.open || dialog.matches(':popover-open')) &&
                dialog.textContent.includes('Товар закончился'),
            ),
          );
        break;
      case 'search-back':
        check = async () => new URL(page.url()).pathname === SEARCH_FROM;
        break;
      case 'search-clear':
        check = async () =>
          !new URL(page.url()).searchParams.has('q') &&
          (await page.evaluate(
            () => document.querySelector<HTMLInputElement>('main input[name="q"]')?.value === '',
          ));
        break;
    }
    const ok = await effectSeen(deadline, check);
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
  } catch (error) {
    return { delay_ms: delay, outcome: 'error', error: message(error) };
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * One page load of each route, unthrottled and not measured: the server's first renders and the
 * resized pictures of a just-started server would otherwise slow the first trials only.
 */
async function warmUp(browser: Browser, baseUrl: string): Promise<void> {
  const context = await firstVisitorContext(browser);
  try {
    const page = await context.newPage();
    for (const route of new Set(TAP_ROWS.map((row) => row.route))) {
      await page.goto(`${baseUrl}${route}`, { waitUntil: 'load', timeout: SHOW_TIMEOUT_MS });
    }
  } finally {
    await context.close().catch(() => {});
  }
}

/** Every row at every delay: one fresh, throttled page load and one tap each. */
export async function benchDeadTaps(browser: Browser, baseUrl: string): Promise<DeadTapFigures> {
  const started = performance.now();
  const base = baseUrl.replace(/\/+$/, '');
  const rows: TapRowFigures[] = TAP_ROWS.map((row) => ({ ...row, trials: [] }));
  const external = new Set<string>();
  await warmUp(browser, base);
  // Delay by delay over all rows, so a burst of load elsewhere does not hit one row only.
  for (const delay of TAP_DELAYS_MS) {
    for (const row of rows) {
      const trial = await tapOnce(browser, base, row, delay, external);
      row.trials.push(trial);
      console.error(
        `dead taps +${delay} ms ${row.control} ${row.route}: ${trial.outcome}${trial.error ? ` (${trial.error})` : ''}`,
      );
    }
  }
  const trials = rows.flatMap((row) => row.trials);
  const lost = trials.filter((trial) => trial.outcome === 'lost').length;
  const errors = trials.filter((trial) => trial.outcome === 'error').length;
  return {
    delays_ms: TAP_DELAYS_MS,
    throttling: TAP_THROTTLING,
    effect_ms: EFFECT_MS,
    rows,
    taps: trials.length - errors,
    lost,
    errors,
    target_lost: 0,
    external: [...external],
    // An error is no measurement, and a request off the machine no healthy page: missed too.
    met: lost === 0 && errors === 0 && external.size === 0,
    duration_s: (performance.now() - started) / 1000,
  };
}

/** The figures as Markdown: the issue's table, then the totals. */
export function deadTapsTable(figures: DeadTapFigures): string {
  const cell = (trial: TapTrial | undefined) =>
    trial?.outcome === 'ok' ? 'ok' : trial?.outcome === 'lost' ? '**lost**' : 'error';
  const lines = [
    `| Control | Route | ${figures.delays_ms.map((delay) => `+${delay} ms`).join(' | ')} |`,
    `| --- | --- |${figures.delays_ms.map(() => ' :---: |').join('')}`,
    ...figures.rows.map(
      (row) =>
        `| ${row.control} | \`${row.route}\` | ${figures.delays_ms.map((delay) => cell(row.trials.find((trial) => trial.delay_ms === delay))).join(' | ')} |`,
    ),
    '',
    `**${figures.lost} of ${figures.taps} taps lost** (target: ${figures.target_lost}; met: ${figures.met ? 'yes' : '**NO**'}).`,
  ];
  const lostTrials = figures.rows.flatMap((row) =>
    row.trials.filter((trial) => trial.outcome === 'lost'),
  );
  if (lostTrials.length > 0) {
    const before = lostTrials.filter((trial) => trial.hydrated_at_tap === false).length;
    const disabled = lostTrials.filter(
      (trial) => trial.hydrated_at_tap === true && trial.disabled_at_tap === true,
    ).length;
    lines.push(
      '',
      `Of the lost taps, ${before} went out before the app had taken the page over (\`html[data-hydrated]\`), ${lostTrials.length - before} after it (${disabled} of these on a disabled control).`,
    );
  }
  const posted = figures.rows.flatMap((row) =>
    row.trials.filter((trial) => trial.outcome === 'ok' && trial.form_posted),
  ).length;
  if (posted > 0) {
    lines.push(
      '',
      `${posted} of the taps that did their work posted the page's form (a page load; the app was not running yet).`,
    );
  }
  const covered = figures.rows.flatMap((row) =>
    row.trials
      .filter((trial) => trial.on_target === false)
      .map((trial) => `${row.control} on \`${row.route}\` at +${trial.delay_ms} ms`),
  );
  if (covered.length > 0) {
    lines.push('', `Tapped where something else covered the control: ${covered.join('; ')}.`);
  }
  const errors = figures.rows.flatMap((row) =>
    row.trials
      .filter((trial) => trial.outcome === 'error')
      .map(
        (trial) => `${row.control} on \`${row.route}\` at +${trial.delay_ms} ms: ${trial.error}`,
      ),
  );
  if (figures.external.length > 0) {
    lines.push('', `**Requests off the machine:** ${figures.external.join(', ')}`);
  }
  if (errors.length > 0) {
    lines.push(
      '',
      `**${errors.length} trial(s) failed** (not counted as taps): ${errors.join('; ')}.`,
    );
  }
  return lines.join('\n');
}
