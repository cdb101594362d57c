// `npm run bench` (it builds first): the shop's performance figures, against the production
// build served with the stub on 127.0.0.1 (a free port), nothing reaching the internet.
//   1. First-view bytes of each route (tests/e2e/first-view.ts says what "first view" is): JS and
//      CSS, gzip and brotli; the budget of `/` is tests/e2e/size-budget.test.ts's, shown beside.
//   2. Lighthouse mobile (bench/lighthouse.ts): score, FCP, LCP, TBT and CLS, the median of
//      BENCH_LH_RUNS runs per route (3). Targets (issue 15): score ≥ 0.98, CLS ≤ 0.01, and on /
//      and /product/7 FCP ≤ 1.2 s and LCP ≤ 1.6 s.
//   3. Search (bench/search.ts, issue 4); the stub under basket writes (bench/stub-writes.ts,
//      issue 13, first, with the machine to itself); pages rendered per second (bench/pages.ts).
//   4. How soon each page shows its loading state while its API answers are held
//      (bench/loading-state.ts); target 1 s or less.
//   5. Pictures (bench/images.ts, issue 20): bytes on / and /product/7, Lighthouse's LCP on
//      /product/7, and the image route's cold and cached throughput.
//   6. Dead taps in Chromium (bench/taps.ts, issue 19; alone and in Firefox: `npm run bench:taps`).
// Writes reports/bench.json and reports/bench.md (printed too); exits with 1 when a target is
// missed. Everything it starts is stopped before it exits, on failure and on Ctrl+C too.
import path from 'node:path';
import { type FirstView, HOME_BUDGET, kb, measureFirstView } from '../tests/e2e/first-view.ts';
import { benchImageRoute, imagesMet, imagesTable, measurePictures } from './images.ts';
import { benchLoadingState, loadingTable } from './loading-state.ts';
import {
  LIGHTHOUSE_RUNS,
  type LighthouseFigures,
  lighthouseTable,
  medianRun,
  startLighthouse,
  TARGET_CLS,
  TARGET_SCORE,
} from './lighthouse.ts';
import { launchChromium } from './lib/browsers.ts';
import { runBench } from './lib/main.ts';
import { allMet, mark, writeReport } from './lib/report.ts';
import { DIST, startBenchShop } from './lib/shop.ts';
import { benchPages, pagesTable } from './pages.ts';
import { benchSearchInBrowser, benchStubSearch, searchTable } from './search.ts';
import { benchStubWrites, stubWritesTable, stubWritesTargets } from './stub-writes.ts';
import { benchDeadTaps, deadTapsTable } from './taps.ts';

/** The routes of issue 8 (a section, a product and a search that exist in the seed), and /news. */
const ROUTES = ['/', '/catalog', '/section/1', '/product/7', '/search?q=малина', '/order', '/news'];
/** Issue 15: the first paint and the main picture on the two pages shared most. */
const TARGET_PAINT = { routes: ['/', '/product/7'], fcp_ms: 1200, lcp_ms: 1600 };

const lighthouseMet = (run: LighthouseFigures) =>
  run.score >= TARGET_SCORE &&
  run.cls <= TARGET_CLS &&
  run.external.length === 0 &&
  (!TARGET_PAINT.routes.includes(run.route) ||
    (run.fcp_ms <= TARGET_PAINT.fcp_ms && run.lcp_ms <= TARGET_PAINT.lcp_ms));

function bytesTable(views: FirstView[]): string {
  const count = (view: FirstView, kind: 'js' | 'css') =>
    view.files.filter((file) => file.kind === kind).length;
  return [
    '| Route | JS gzip | JS brotli | JS files | CSS gzip | CSS brotli | CSS files |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...views.map(
      (v) =>
        `| \`${v.route}\` | ${kb(v.js.gzip)} KB | ${kb(v.js.brotli)} KB | ${count(v, 'js')} | ${kb(v.css.gzip)} KB | ${kb(v.css.brotli)} KB | ${count(v, 'css')} |`,
    ),
  ].join('\n');
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

await runBench(async (atExit) => {
  const started = performance.now();
  const say = (what: string) => console.error(`bench: ${what} (${elapsed(started)})`);
  // Before anything else runs: the stub and the server under load have the machine to themselves.
  const stub = benchStubSearch();
  const writes = await benchStubWrites(atExit);
  say('stub writes measured');
  const pages = await benchPages(atExit);
  const imageRoute = await benchImageRoute(atExit);
  say('pages and image route timed');

  const server = await startBenchShop(atExit);
  const base = server.url.replace(/\/+$/, '');
  const browser = await launchChromium();
  atExit(() => browser.close());
  const views: FirstView[] = [];
  for (const route of ROUTES) {
    views.push(await measureFirstView(browser, base, route, path.join(DIST, 'client')));
  }
  // After the first views: the pictures were resized then, as for any visitor but the first.
  const home = await measurePictures(browser, base, '/');
  const product = await measurePictures(browser, base, '/product/7');
  say('first views and pictures measured');
  const web = await benchSearchInBrowser(browser, base);
  const loading = await benchLoadingState(browser, base);
  say('search and loading states timed');
  const chromium = browser.version();
  await browser.close();
  const deadTaps = await benchDeadTaps('chromium', base, atExit);
  say('dead taps counted');

  // Lighthouse gets the machine to itself; round by round over all routes, so that a burst of
  // load elsewhere does not hit one route only.
  const lighthouse = await startLighthouse(atExit);
  const runs = new Map<string, LighthouseFigures[]>(ROUTES.map((route) => [route, []]));
  for (let round = 0; round < LIGHTHOUSE_RUNS; round += 1) {
    for (const route of ROUTES) runs.get(route)?.push(await lighthouse.audit(base, route));
  }
  const audits = ROUTES.map((route) => medianRun(runs.get(route) ?? []));
  say('Lighthouse done');

  const homeView = views.find((view) => view.route === '/');
  const budgetMet =
    !!homeView &&
    homeView.js.gzip <= HOME_BUDGET.jsGzip &&
    homeView.css.gzip <= HOME_BUDGET.cssGzip;
  const productLcp = audits.find((audit) => audit.route === '/product/7')?.lcp_ms ?? Infinity;
  const picturesMet = imagesMet(home, product, productLcp);
  const report = {
    date: new Date().toISOString(),
    chromium,
    first_view: { budget: { ...HOME_BUDGET, met: budgetMet }, routes: views },
    lighthouse: { runs_per_route: LIGHTHOUSE_RUNS, target_paint: TARGET_PAINT, runs: audits },
    search: { stub, browser: web },
    stub_writes: writes,
    loading_state: loading,
    pages,
    images: { home, product, route: imageRoute, met: picturesMet },
    dead_taps: deadTaps,
  };
  const md = [
    '## First view: JS and CSS loaded',
    '',
    bytesTable(views),
    '',
    `Budget of \`/\` (tests/e2e/size-budget.test.ts): JS ≤ ${kb(HOME_BUDGET.jsGzip)} KB, CSS ≤ ${kb(HOME_BUDGET.cssGzip)} KB gzip: ${mark(budgetMet)}.`,
    '',
    `## Lighthouse, mobile (simulated slow 4G, 4x CPU), median of ${LIGHTHOUSE_RUNS} run(s) by score`,
    '',
    `On ${TARGET_PAINT.routes.join(' and ')}: FCP ≤ ${TARGET_PAINT.fcp_ms / 1000} s and LCP ≤ ${TARGET_PAINT.lcp_ms / 1000} s too.`,
    '',
    lighthouseTable(
      ROUTES.map((route) => runs.get(route) ?? []),
      lighthouseMet,
    ),
    '',
    '## Search',
    '',
    searchTable(stub, web),
    '',
    '## The stub under basket writes',
    '',
    stubWritesTable(writes),
    '',
    '## Pages rendered by the server',
    '',
    pagesTable(pages),
    '',
    '## Pictures',
    '',
    imagesTable(home, product, productLcp, imageRoute),
    '',
    '## Loading state while the API is slow',
    '',
    loadingTable(loading),
    '',
    '## Dead taps on a slow phone',
    '',
    deadTapsTable(deadTaps),
    '',
    `Chromium ${chromium}; ${elapsed(started)} in all.`,
  ].join('\n');
  await writeReport('bench', 'npm run bench', report, md);
  return (
    budgetMet &&
    audits.every(lighthouseMet) &&
    views.every((view) => view.external.length === 0) &&
    stub.met &&
    web.met &&
    allMet(stubWritesTargets(writes)) &&
    loading.met &&
    pages.met &&
    picturesMet &&
    deadTaps.met
  );
});
