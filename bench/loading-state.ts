// How soon each page shows a loading state while every /api answer is held (part of `npm run
// bench`; that it shows is tests/e2e/failures-slow.test.ts's). A returning shopper (a phone context
// that has opened /login/: the code is cached) navigates there inside the app, as the server
// renders every page with its data. /order and /commit have none: the basket comes with each page.
import type { Browser } from 'playwright-core';
import { hydrated } from '../tests/e2e/browser.ts';
import { apiPath, holdAnswers } from '../tests/e2e/held-answers.ts';
import { phoneContext, timeUntilShown } from './lib/browsers.ts';
import { ms, row, type Target } from './lib/report.ts';
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
  const context = await phoneContext(browser, new URL(baseUrl).origin);
  const page = await context.newPage();
  // Requests still held when the context closes are dropped.
  await holdAnswers(page, apiPath('/api/'));
  try {
    await page.goto(`${baseUrl}/login/`);
    await hydrated(page);
    // wouter follows pushState: this is the navigation a link click makes.
    const act = `history.pushState(null, '', ${JSON.stringify(route)})`;
    return await timeUntilShown(page, LOADING_SHOWN, { act });
  } finally {
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
    return row(
      `loading state shown on \`${route}\` (median; runs ${all.map(ms).join(', ')})`,
      ms(median(all)),
      `≤ ${LOADING_TARGET_MS} ms`,
      median(all) <= LOADING_TARGET_MS,
    );
  });
}
