// Dead taps (issue 19) in Firefox (issue 32): the same rows, delays and checks as
// bench/dead-taps.ts, in Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi;
// `npm run bench:taps` runs it after Chromium's (BENCH_TAPS_ENGINES=chromium or firefox: one).
//
// WebDriver BiDi has no network or CPU throttling (Chromium's come from the DevTools protocol).
// The slow 4G is a proxy in front of the shop instead: each request waits the latency, and every
// answer's bytes share one link of the same download rate. The CPU is NOT slowed: Firefox's taps
// run on this machine's speed, so a tap lost here is lost on a fast phone on a slow network.
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { once } from 'node:events';
import { Agent, fetch } from 'undici';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import {
  type ControlKind,
  type DeadTapFigures,
  EFFECT_MS,
  effectSeen,
  isNavigationError,
  LOCATE,
  message,
  ORDER_PRODUCT,
  POLL_MS,
  SEARCH_FROM,
  SHOW_TIMEOUT_MS,
  sleep,
  type Spot,
  TAP_DELAYS_MS,
  TAP_ROWS,
  TAP_THROTTLING,
  type TapRow,
  type TapRowFigures,
  type TapTrial,
} from './dead-taps.ts';
import { FIRST_VIEW_VIEWPORT } from './first-view.ts';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** What Firefox's trials are throttled by: the network only. */
export const FIREFOX_THROTTLING = { ...TAP_THROTTLING, cpu_slowdown: 1 };

/**
 * A reverse proxy to `target` on a free port of 127.0.0.1: the latency before each request,
 * and the answers' bytes paced through one shared link at the download rate.
 */
async function slowNetwork(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  let linkFreeAt = performance.now();
  const SLICE = 4096;
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
              for (let at = 0; at < chunk.length; at += SLICE) {
                const slice = chunk.subarray(at, at + SLICE);
                const start = Math.max(performance.now(), linkFreeAt);
                linkFreeAt = start + (slice.length / TAP_THROTTLING.download_bytes_per_s) * 1000;
                await sleep(linkFreeAt - performance.now());
                if (outgoing.destroyed) {
                  answer.destroy();
                  return;
                }
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
      // A page left mid-answer (the next trial's browser context): the shop's side goes too, or
      // its open connection would hold the shop's close up.
      outgoing.on('close', () => forwarded.destroy());
      incoming.pipe(forwarded);
    }, TAP_THROTTLING.latency_ms);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * The bench's own requests to the shop (the basket as the server has it), on sockets closed at
 * the end: a kept-alive one would hold the shop's close up.
 */
const direct = new Agent({ keepAliveTimeout: 10 });

/** The browser's cookies for the shop, as a Cookie header. */
async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
}

type Basket = Record<string, { amount?: number } | undefined>;

/** The visitor's basket as the server has it; null while the browser has no session yet. */
async function serverBasket(context: BrowserContext, shop: string): Promise<Basket | null> {
  const cookies = await context.cookies();
  if (!cookies.some((cookie) => cookie.name === 'sessionid')) return null;
  const response = await fetch(`${shop}/api/catalog/basket`, {
    headers: { cookie: await cookieHeader(context) },
    dispatcher: direct,
  });
  if (!response.ok) throw new Error(`basket answered ${response.status}`);
  return (await response.json()) as Basket;
}

/** A session whose basket holds product 7, given to the browser; answers its amount. */
async function basketWithLine(context: BrowserContext, shop: string): Promise<number> {
  const first = await fetch(`${shop}/api/catalog/basket`, { dispatcher: direct });
  const cookies = first.headers.getSetCookie().map((line) => line.split(';')[0] ?? '');
  const csrf = cookies.find((pair) => pair.startsWith('csrftoken='))?.split('=')[1];
  if (!csrf) throw new Error('the stub set no csrftoken cookie');
  const put = await fetch(`${shop}/api/catalog/basket/${ORDER_PRODUCT}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      'x-csrftoken': csrf,
      cookie: cookies.join('; '),
    },
    body: JSON.stringify({ amount: 1 }),
    dispatcher: direct,
  });
  if (!put.ok) throw new Error(`basket PUT answered ${put.status}: ${await put.text()}`);
  for (const pair of cookies) {
    const at = pair.indexOf('=');
    await context.setCookie({
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      domain: '127.0.0.1',
      path: '/',
    });
  }
  const basket = (await put.json()) as Basket;
  return basket[String(ORDER_PRODUCT)]?.amount ?? 1;
}

async function locate(page: Page, kind: ControlKind): Promise<Spot | null> {
  try {
    // Before the first bytes the document has no root element yet: nothing shown.
    return (await page.evaluate(
      `document.documentElement && (${LOCATE})(${JSON.stringify(kind)})`,
    )) as Spot | null;
  } catch (error) {
    if (isNavigationError(error)) return null;
    throw error;
  }
}

/** Runs `expression` in the page; false while the page is between documents. */
async function pageSays(page: Page, expression: string): Promise<boolean> {
  return Boolean(await page.evaluate(`document.documentElement && (${expression})`));
}

async function tapOnce(
  browser: Browser,
  shop: string,
  proxy: string,
  row: TapRow,
  delay: number,
  external: Set<string>,
): Promise<TapTrial> {
  const context = await browser.createBrowserContext();
  const origin = new URL(proxy).origin;
  try {
    const page = await context.newPage();
    await page.setViewport(FIRST_VIEW_VIEWPORT);
    let formPosted = false;
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
    const amountBefore =
      row.kind === 'order-plus' ? await basketWithLine(context, shop) : undefined;

    const navigationStart = performance.now();
    const navigation = page
      .goto(`${proxy}${row.route}`, { waitUntil: 'load', timeout: SHOW_TIMEOUT_MS })
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
    const now = (await locate(page, row.kind)) ?? spot;
    await page.mouse.click(now.x, now.y);
    const tappedAt = performance.now();

    const checks: Record<ControlKind, () => Promise<boolean>> = {
      basket: async () => Boolean((await serverBasket(context, shop))?.[productId]),
      'order-plus': async () => {
        const amount = (await serverBasket(context, shop))?.[String(ORDER_PRODUCT)]?.amount;
        return typeof amount === 'number' && amount > (amountBefore ?? Infinity);
      },
      cookie: async () =>
        (await context.cookies()).some(
          (cookie) => cookie.name === 'cookieAccepted' && cookie.value === 'true',
        ),
      theme: () => pageSays(page, `document.documentElement.dataset.mantineColorScheme === 'dark'`),
      menu: () =>
        pageSays(page, `!!document.querySelector('[role="menu"][aria-label="Меню"]:popover-open')`),
      unavailable: () =>
        pageSays(
          page,
          `Array.from(document.querySelectorAll('dialog')).some((dialog) => (dialog.open || dialog.matches(':popover-open')) && dialog.textContent.includes('Товар закончился'))`,
        ),
      'search-back': async () => new URL(page.url()).pathname === SEARCH_FROM,
      'search-clear': async () =>
        !new URL(page.url()).searchParams.has('q') &&
        (await pageSays(page, `document.querySelector('main input[name="q"]')?.value === ''`)),
    };
    const ok = await effectSeen(tappedAt + EFFECT_MS, checks[row.kind]);
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

/** Firefox's figures: every row at every delay, one fresh page load and one tap each. */
export async function benchDeadTapsFirefox(shopUrl: string): Promise<DeadTapFigures> {
  const started = performance.now();
  const shop = shopUrl.replace(/\/+$/, '');
  const network = await slowNetwork(shop);
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      protocol: 'webDriverBiDi',
      headless: true,
      // Ctrl+C is handled by the bench's main: it stops the server after the browser.
      handleSIGINT: false,
      handleSIGTERM: false,
    });
    // One unthrottled, unmeasured load of each route (the server's first renders).
    const warm = await browser.createBrowserContext();
    const page = await warm.newPage();
    for (const route of new Set(TAP_ROWS.map((row) => row.route))) {
      await page.goto(`${shop}${route}`, { waitUntil: 'load', timeout: SHOW_TIMEOUT_MS });
    }
    await warm.close();

    const rows: TapRowFigures[] = TAP_ROWS.map((row) => ({ ...row, trials: [] }));
    const external = new Set<string>();
    for (const delay of TAP_DELAYS_MS) {
      for (const row of rows) {
        const trial = await tapOnce(browser, shop, network.url, row, delay, external);
        row.trials.push(trial);
        console.error(
          `dead taps (Firefox) +${delay} ms ${row.control} ${row.route}: ${trial.outcome}${trial.error ? ` (${trial.error})` : ''}`,
        );
      }
    }
    const trials = rows.flatMap((row) => row.trials);
    const lost = trials.filter((trial) => trial.outcome === 'lost').length;
    const errors = trials.filter((trial) => trial.outcome === 'error').length;
    return {
      delays_ms: TAP_DELAYS_MS,
      throttling: FIREFOX_THROTTLING,
      effect_ms: EFFECT_MS,
      rows,
      taps: trials.length - errors,
      lost,
      errors,
      target_lost: 0,
      external: [...external],
      met: lost === 0 && errors === 0 && external.size === 0,
      duration_s: (performance.now() - started) / 1000,
    };
  } finally {
    await browser?.close().catch(() => {});
    await direct.close();
    network.server.closeAllConnections();
    network.server.close();
  }
}

/** Firefox's version, for the bench's machine line. */
export function firefoxVersion(): Promise<string> {
  return new Promise((resolve) =>
    execFile(FIREFOX_PATH, ['--version'], (error, stdout) =>
      resolve(error ? 'unknown' : stdout.trim()),
    ),
  );
}
