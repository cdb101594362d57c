// How soon each page shows a loading state while its API answers are held, part of `npm run
// bench` (target ≤ 1 s: a slow answer never leaves a blank page for long). That it shows is
// tests/e2e/failures-slow.test.ts's; how soon is a timing goal. Per route, median of 3 runs: a
// returning shopper (a phone context that has opened /login/, so the shop's code is cached)
// navigates there inside the app, as the server renders every page with its data. /order and
// /commit have no loading state left: the basket comes with every page (issue 19).
import type { Browser } from 'playwright-core';
import { phoneContext, timeUntilShown } from './lib/browsers.ts';
import { ms, type Target } from './lib/report.ts';
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
const LOADING_SHOWN = `[...document.querySelectorAll(
  'main [aria-busy="true"], main .mantine-Skeleton-root, main .mantine-Loader-root',
)].some((element) => element.checkVisibility())`;

async function measureOnce(browser: Browser, baseUrl: string, route: string): Promise<number> {
  const origin = new URL(baseUrl).origin;
  const context = await phoneContext(browser, origin);
  let releaseApi!: () => void;
  const apiHeld = new Promise<void>((resolve) => (releaseApi = resolve));
  try {
    await context.route(
      (url) => url.origin === origin && url.pathname.startsWith('/api/'),
      async (request) => {
        await apiHeld;
        await request.fallback().catch(() => {});
      },
    );
    const page = await context.newPage();
    await page.goto(`${origin}/login/`);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    // wouter follows pushState: this is the navigation a link click makes.
    const act = `history.pushState(null, '', ${JSON.stringify(route)})`;
    return await timeUntilShown(page, LOADING_SHOWN, { act });
  } finally {
    releaseApi();
    await context.close().catch(() => {});
  }
}

/** Each route's median as a target row, all its runs beside it. */
export async function benchLoadingState(browser: Browser, baseUrl: string): Promise<Target[]> {
  const runs = LOADING_ROUTES.map((): number[] => []);
  // Round by round over all routes, so a burst of load elsewhere does not hit one route only.
  for (let round = 0; round < LOADING_RUNS; round += 1) {
    for (const [index, route] of LOADING_ROUTES.entries()) {
      runs[index]?.push(await measureOnce(browser, baseUrl, route));
    }
  }
  return LOADING_ROUTES.map((route, index) => {
    const all = runs[index] ?? [];
    return {
      figure: `loading state shown on \`${route}\` (median; runs ${all.map(ms).join(', ')})`,
      value: ms(median(all)),
      target: `≤ ${LOADING_TARGET_MS} ms`,
      met: median(all) <= LOADING_TARGET_MS,
    };
  });
}
