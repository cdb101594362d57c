// How soon each page shows a loading state while its API answers are still on their way, part of
// `npm run bench`. tests/e2e/failures-slow.test.ts checks that the loading state shows (holding
// the answers until it has); how soon is a timing goal, and timing goals live here, where a busy
// machine makes a figure worse instead of failing a test at random.
//
// Per route: a returning shopper (a fresh browser context that has opened /login/, so the shop's
// own code is in its cache; a first visit is Lighthouse's part), 390x844, every /api request from
// the browser held until the measurement is over; the time to the first moment `main` holds a
// visible loading state (aria-busy, a skeleton or a loader), seen by a MutationObserver that the
// page runs before its own scripts. The server renders every page with its data, so each is timed
// as a navigation inside the app from /login/, from the navigation. /order and /commit are not
// timed: the visitor's basket comes with every page (issue 19), so they show it at once and have
// no loading state left to time. Median of LOADING_RUNS runs. Target: 1 s or less, so that a slow
// answer never leaves the shopper looking at a blank page for long.
import type { Browser } from 'playwright-core';
import { firstVisitorContext } from '../tests/e2e/first-view.ts';
import { mark } from './lib/report.ts';
import { median } from './lib/stats.ts';

/** The main pages of tests/e2e/failures-slow.test.ts. */
const LOADING_ROUTES = [
  '/',
  '/catalog',
  '/section/1',
  '/selection/1',
  '/product/7',
  '/search?q=малина',
  '/order_status',
  '/policy',
  '/news',
];
const LOADING_RUNS = 3;
const LOADING_TARGET_MS = 1000;

declare global {
  interface Window {
    /** performance.now() when `main` first showed a loading state. */
    __loadingShownAt?: number;
  }
}

/**
 * Runs in the page before its own scripts. Text, not a function: tsx would add its own helpers to
 * a function's source, which the page does not have.
 */
const WATCH_FOR_LOADING_STATE = `(() => {
  const selector =
    'main [aria-busy="true"], main .mantine-Skeleton-root, main .mantine-Loader-root';
  const observer = new MutationObserver(() => {
    if (window.__loadingShownAt !== undefined) return;
    for (const element of document.querySelectorAll(selector)) {
      if (element.checkVisibility()) {
        window.__loadingShownAt = performance.now();
        return;
      }
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

async function measureOnce(browser: Browser, baseUrl: string, route: string): Promise<number> {
  const origin = new URL(baseUrl).origin;
  const context = await firstVisitorContext(browser);
  let releaseApi!: () => void;
  const apiHeld = new Promise<void>((resolve) => (releaseApi = resolve));
  try {
    await context.route(
      (url) => url.origin !== origin && url.protocol.startsWith('http'),
      (request) => request.abort('blockedbyclient'),
    );
    await context.route(
      (url) => url.origin === origin && url.pathname.startsWith('/api/'),
      async (request) => {
        await apiHeld;
        await request.fallback().catch(() => {});
      },
    );
    await context.addInitScript({ content: WATCH_FOR_LOADING_STATE });
    const page = await context.newPage();
    await page.goto(new URL('/login/', origin).href);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    const startedAt = await page.evaluate((to) => {
      window.__loadingShownAt = undefined;
      const now = performance.now();
      // wouter follows pushState: this is the navigation a link click makes.
      window.history.pushState(null, '', to);
      return now;
    }, route);
    await page.waitForFunction(() => window.__loadingShownAt !== undefined, undefined, {
      timeout: 60_000,
    });
    return (await page.evaluate(() => window.__loadingShownAt ?? NaN)) - startedAt;
  } finally {
    releaseApi();
    await context.close().catch(() => {});
  }
}

export async function benchLoadingState(browser: Browser, baseUrl: string) {
  const runs = new Map<string, number[]>(LOADING_ROUTES.map((route) => [route, []]));
  // Round by round over all routes, so a burst of load elsewhere does not hit one route only.
  for (let round = 0; round < LOADING_RUNS; round += 1) {
    for (const route of LOADING_ROUTES) {
      runs.get(route)?.push(await measureOnce(browser, baseUrl, route));
    }
  }
  const routes = LOADING_ROUTES.map((route) => {
    const all = runs.get(route) ?? [];
    const value = median(all);
    return { route, median_ms: value, runs_ms: all, met: value <= LOADING_TARGET_MS };
  });
  return {
    target_ms: LOADING_TARGET_MS,
    runs_per_route: LOADING_RUNS,
    routes,
    met: routes.every((route) => route.met),
  };
}

export function loadingTable(figures: LoadingFigures): string {
  return [
    `From navigation start to the first visible loading state in \`main\`, every /api answer held; median of ${figures.runs_per_route} runs.\n\n| Route | Loading state shown (median) | Target ≤ ${figures.target_ms} ms | All runs |`,
    '| --- | ---: | :---: | --- |',
    ...figures.routes.map(
      (r) =>
        `| \`${r.route}\` | ${Math.round(r.median_ms)} ms | ${mark(r.met)} | ${r.runs_ms.map((v) => `${Math.round(v)} ms`).join(', ')} |`,
    ),
  ].join('\n');
}

export type LoadingFigures = Awaited<ReturnType<typeof benchLoadingState>>;
