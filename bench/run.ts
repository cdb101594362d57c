// `npm run bench` (it builds first): the shop's performance figures against the production build
// with the stub on 127.0.0.1 (a free port), nothing reaching the internet. Each part is a bench of
// its own, listed with its targets in the docs; the stub and the server under load go first,
// with the machine to themselves, and Lighthouse last. Writes reports/bench.json and .md (printed
// too); exits with 1 when a target is missed, having stopped everything it started.
import path from 'node:path';
import { type FirstView, HOME_BUDGET, kb, measureFirstView } from '../tests/e2e/first-view.ts';
import { benchImageRoute, imagesTargets } from './images.ts';
import { benchLoadingState } from './loading-state.ts';
import { benchObservability } from './observability.ts';
import { auditRoutes, lighthouseTable, ROUTES } from './lighthouse.ts';
import { launchChromium } from './lib/browsers.ts';
import { runBench } from './lib/main.ts';
import { allMet, row, targetTable, writeReport } from './lib/report.ts';
import { DIST, startBenchShop } from './lib/shop.ts';
import { benchPages, pagesTable } from './pages.ts';
import { benchSearchInBrowser, benchStubSearch, searchTargets } from './search.ts';
import { benchStubWrites, stubWritesTable, stubWritesTargets } from './stub-writes.ts';
import { benchDeadTaps, deadTapsTable } from './taps.ts';

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

await runBench(async (atExit) => {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const say = (what: string) => console.error(`bench: ${what} (${elapsed()})`);
  const stub = benchStubSearch();
  const writes = await benchStubWrites(atExit);
  const pages = await benchPages(atExit);
  const observability = await benchObservability(atExit);
  const imageRoute = await benchImageRoute(atExit);
  say('stub writes, pages, observability and image route timed');

  const base = (await startBenchShop(atExit)).url.replace(/\/+$/, '');
  const browser = await launchChromium();
  atExit(() => browser.close());
  const views: FirstView[] = [];
  for (const route of ROUTES) {
    views.push(await measureFirstView(browser, base, route, path.join(DIST, 'client')));
  }
  const web = await benchSearchInBrowser(browser, base);
  const loading = await benchLoadingState(browser, base);
  const chromium = browser.version();
  await browser.close();
  say('first views, search and loading states measured');
  const deadTaps = await benchDeadTaps('chromium', base, atExit);
  say('dead taps counted');
  // Lighthouse gets the machine to itself.
  const lighthouse = await auditRoutes(atExit, base, ROUTES);
  const productLcp = lighthouse.find((audit) => audit.route === '/product/7')?.lcp_ms ?? NaN;

  const homeView = views.find((view) => view.route === '/');
  const budget = [
    row(
      'first view of `/`, JS and CSS gzip (tests/e2e/size-budget.test.ts)',
      `${kb(homeView?.js.gzip ?? NaN)} KB, ${kb(homeView?.css.gzip ?? NaN)} KB`,
      `≤ ${kb(HOME_BUDGET.jsGzip)} KB, ≤ ${kb(HOME_BUDGET.cssGzip)} KB`,
      !!homeView &&
        homeView.js.gzip <= HOME_BUDGET.jsGzip &&
        homeView.css.gzip <= HOME_BUDGET.cssGzip,
    ),
  ];
  const search = searchTargets(stub, web);
  const pictures = imagesTargets(productLcp, imageRoute);
  const report = {
    chromium,
    first_view: { budget: HOME_BUDGET, routes: views },
    lighthouse,
    search: { stub, browser: web },
    stub_writes: writes,
    loading_state: loading,
    pages,
    observability,
    image_route: imageRoute,
    dead_taps: deadTaps,
  };
  const md = [
    `## First view: JS and CSS loaded\n\n${bytesTable(views)}\n\n${targetTable(budget)}`,
    `## Lighthouse, mobile (simulated slow 4G, 4x CPU)\n\n${lighthouseTable(lighthouse)}`,
    `## Search\n\n${targetTable(search)}`,
    `## The stub under basket writes\n\n${stubWritesTable(writes)}`,
    `## Pages rendered by the server\n\n${pagesTable(pages)}`,
    `## What metrics, logs and Server-Timing cost\n\n${targetTable(observability.targets)}`,
    `## Pictures\n\n${targetTable(pictures)}`,
    `## Loading state while the API is slow (every /api answer held)\n\n${targetTable(loading)}`,
    `## Dead taps on a slow phone\n\n${deadTapsTable(deadTaps)}`,
    `Chromium ${chromium}; ${elapsed()} in all.`,
  ].join('\n\n');
  await writeReport('bench', 'npm run bench', report, md);
  return (
    [budget, search, pictures, loading, stubWritesTargets(writes), observability.targets].every(
      allMet,
    ) &&
    views.every((view) => view.external.length === 0) &&
    lighthouse.every((audit) => audit.met) &&
    pages.met &&
    deadTaps.met
  );
});
