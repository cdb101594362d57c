// `npm run bench` (it builds first): the shop's performance figures, against the production
// build served with the stub on 127.0.0.1 (a free port), nothing reaching the internet.
//   1. First-view bytes of each route (bench/first-view.ts says what "first view" is): JS and CSS,
//      gzip and brotli, and the size budget of `/` that tests/e2e/size-budget.test.ts asserts.
//   2. Lighthouse mobile audits (bench/lighthouse.ts): performance score, FCP, LCP, TBT and CLS,
//      the median of BENCH_LH_RUNS runs per route (default 3). Targets (issue 15): score ≥ 0.98,
//      CLS ≤ 0.01, and on / and /product/7 FCP ≤ 1.2 s and LCP ≤ 1.6 s.
//   3. The search figures of issue 4 (bench/search.ts).
//   4. The stub under a storm of basket writes, issue 13 (bench/stub-writes.ts; it starts a stub
//      of its own, before the browsers, so that it has the machine to itself).
//   4. How soon each page shows its loading state while its API answers are held
//      (bench/loading-state.ts); target 1 s or less.
//   5. Pictures (bench/images.ts, issue 20): the bytes a phone downloads on / and /product/7,
//      Lighthouse's LCP on /product/7, and the image route's cold and cached throughput.
//   6. Dead taps (bench/dead-taps.ts, issue 19; alone: `npm run bench:taps`): whether one real tap
//      on each route's main controls, +0 to +2000 ms after they show on a throttled phone,
//      does anything; target: no tap lost.
// Writes reports/bench.json and reports/bench.md (printed too) and exits with 1 when a target is
// missed. Everything it starts (server, browsers, temporary data) is stopped before it exits,
// on failure and on Ctrl+C too. BENCH_DIST points at another build (e.g. one made with --outDir).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import type { RunningShop } from '../host/app.ts';
import { startBenchShop } from './bench-shop.ts';
import { benchPages, pagesTable, type PageFigures } from './pages.ts';
import {
  type FirstView,
  HOME_BUDGET,
  kb,
  measureFirstView,
  QUIET_AFTER_IDLE_MS,
} from './first-view.ts';
import {
  benchImageRoute,
  type ImageRouteFigures,
  imagesMet,
  imagesTable,
  measurePictures,
  type PictureView,
} from './images.ts';
import { benchLoadingState, type LoadingFigures, loadingTable } from './loading-state.ts';
import {
  CHROME_FLAGS,
  type LighthouseFigures,
  type LighthouseSession,
  medianRun,
  startLighthouse,
  TARGET_CLS,
  TARGET_SCORE,
} from './lighthouse.ts';
import { benchDeadTaps, type DeadTapFigures, deadTapsTable } from './dead-taps.ts';
import { benchStubWrites, type StubWritesFigures, stubWritesTable } from './stub-writes.ts';
import {
  benchSearchInBrowser,
  benchStubSearch,
  type BrowserFigures,
  searchTable,
  type StubFigures,
} from './search.ts';
import { stopOnce } from './stop-once.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.resolve(process.env.BENCH_DIST ?? path.join(REPO_ROOT, 'dist'));
const REPORT_JSON = path.join(REPO_ROOT, 'reports', 'bench.json');
const REPORT_MD = path.join(REPO_ROOT, 'reports', 'bench.md');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** The routes of issue 8 (a section, a product and a search that exist in the seed catalogue), and /news. */
const ROUTES = ['/', '/catalog', '/section/1', '/product/7', '/search?q=малина', '/order', '/news'];
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3) || 3);
/** Issue 15: the first paint and the main picture on the two pages shared most. */
const TARGET_PAINT = { routes: ['/', '/product/7'], fcp_ms: 1200, lcp_ms: 1600 };

interface LighthouseRoute extends LighthouseFigures {
  /** Every run's score; the figures above are those of the run with the median score. */
  scores: number[];
  met: boolean;
}

function machine(): string {
  const [load1 = 0] = os.loadavg();
  return `${os.cpus().length} CPUs, load average ${load1.toFixed(2)}, Node ${process.version}`;
}

const lighthouseVersion = (): string =>
  (
    JSON.parse(
      readFileSync(path.join(REPO_ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
    ) as { version: string }
  ).version;

async function auditAll(session: LighthouseSession, baseUrl: string): Promise<LighthouseRoute[]> {
  const runs = new Map<string, LighthouseFigures[]>(ROUTES.map((route) => [route, []]));
  // Round by round over all routes, so a burst of load elsewhere does not hit one route only.
  for (let round = 0; round < LIGHTHOUSE_RUNS; round += 1) {
    for (const route of ROUTES) {
      const figures = await session.audit(`${baseUrl}${route}`, route);
      runs.get(route)?.push(figures);
      console.error(
        `lighthouse ${round + 1}/${LIGHTHOUSE_RUNS} ${route}: ${figures.score.toFixed(2)}`,
      );
    }
  }
  return ROUTES.map((route) => {
    const all = runs.get(route) ?? [];
    const run = medianRun(all);
    return {
      ...run,
      scores: all.map((figures) => figures.score),
      met:
        run.score >= TARGET_SCORE &&
        run.cls <= TARGET_CLS &&
        run.external.length === 0 &&
        (!TARGET_PAINT.routes.includes(route) ||
          (run.fcp_ms <= TARGET_PAINT.fcp_ms && run.lcp_ms <= TARGET_PAINT.lcp_ms)),
    };
  });
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const yes = (met: boolean) => (met ? 'yes' : '**NO**');

function bytesTable(views: FirstView[]): string {
  const lines = [
    '| Route | JS gzip | JS brotli | JS files | CSS gzip | CSS brotli | CSS files |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...views.map((view) => {
      const count = (kind: 'js' | 'css') => view.files.filter((file) => file.kind === kind).length;
      return `| \`${view.route}\` | ${kb(view.js.gzip)} KB | ${kb(view.js.brotli)} KB | ${count('js')} | ${kb(view.css.gzip)} KB | ${kb(view.css.brotli)} KB | ${count('css')} |`;
    }),
  ];
  return lines.join('\n');
}

function lighthouseTable(routes: LighthouseRoute[]): string {
  const lines = [
    `| Route | Score (target ≥ ${TARGET_SCORE}) | FCP | LCP | TBT | CLS (target ≤ ${TARGET_CLS}) | Met | All runs |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | :---: | --- |',
    ...routes.map(
      (r) =>
        `| \`${r.route}\` | ${r.score.toFixed(2)} | ${seconds(r.fcp_ms)} | ${seconds(r.lcp_ms)} | ${Math.round(r.tbt_ms)} ms | ${r.cls.toFixed(3)} | ${yes(r.met)} | ${r.scores.map((s) => s.toFixed(2)).join(', ')} |`,
    ),
  ];
  const external = routes.flatMap((r) => r.external);
  if (external.length > 0) lines.push('', `**Requests off the machine:** ${external.join(', ')}`);
  const blocked = [...new Set(routes.flatMap((r) => r.blocked))];
  if (blocked.length > 0) {
    lines.push(
      '',
      `Blocked by the audits (Telegram's widget; the posts show as links): ${blocked.join(', ')}`,
    );
  }
  const warnings = routes.filter((r) => r.warning).map((r) => `${r.route}: ${r.warning}`);
  if (warnings.length > 0) lines.push('', `Lighthouse warnings: ${warnings.join('; ')}`);
  return lines.join('\n');
}

interface Report {
  date: string;
  machine: string;
  chromium: string;
  lighthouse_version: string;
  duration_s: number;
  first_view: {
    definition: string;
    budget: typeof HOME_BUDGET & { js_gzip: number; css_gzip: number; met: boolean };
    routes: FirstView[];
  };
  lighthouse: {
    runs_per_route: number;
    target_score: number;
    target_cls: number;
    target_paint: typeof TARGET_PAINT;
    routes: LighthouseRoute[];
  };
  search: { stub: StubFigures; browser: BrowserFigures };
  stub_writes: StubWritesFigures;
  loading_state: LoadingFigures;
  pages: PageFigures;
  images: { home: PictureView; product: PictureView; route: ImageRouteFigures; met: boolean };
  dead_taps: DeadTapFigures;
}

function markdown(report: Report): string {
  const home = report.first_view.budget;
  return [
    `# npm run bench — ${report.date}`,
    '',
    `## First view: JS and CSS loaded`,
    '',
    report.first_view.definition,
    '',
    bytesTable(report.first_view.routes),
    '',
    `Size budget of \`/\`: JS ${kb(home.js_gzip)} KB gzip (≤ ${kb(home.jsGzip)} KB), CSS ${kb(home.css_gzip)} KB gzip (≤ ${kb(home.cssGzip)} KB): met ${yes(home.met)}.`,
    '',
    `## Lighthouse ${report.lighthouse_version}, mobile (simulated slow 4G, 4x CPU), performance`,
    '',
    `Median of ${report.lighthouse.runs_per_route} run(s) per route, by score.`,
    '',
    lighthouseTable(report.lighthouse.routes),
    '',
    '## Search',
    '',
    searchTable(report.search.stub, report.search.browser),
    '',
    '## The stub under basket writes',
    '',
    stubWritesTable(report.stub_writes),
    '## Pages rendered by the server',
    '',
    pagesTable(report.pages),
    '',
    '## Pictures',
    '',
    imagesTable(
      report.images.home,
      report.images.product,
      report.lighthouse.routes.find((route) => route.route === '/product/7')?.lcp_ms ?? Infinity,
      report.images.route,
    ),
    '',
    '## Loading state while the API is slow',
    '',
    `From navigation start to the first visible loading state in \`main\`, every /api answer held; median of ${report.loading_state.runs_per_route} runs per route.`,
    '',
    loadingTable(report.loading_state),
    '',
    '## Dead taps on a slow phone',
    '',
    `One real tap per fresh, throttled page load (CPU ${report.dead_taps.throttling.cpu_slowdown}x slower, ${report.dead_taps.throttling.latency_ms} ms latency, 1.6 Mbps down, 750 kbps up), the given time after the control first shows; \`ok\` when the shopper or the server sees its effect within ${report.dead_taps.effect_ms / 1000} s.`,
    '',
    deadTapsTable(report.dead_taps),
    '',
    `Machine: ${report.machine}; Chromium ${report.chromium}; ${report.duration_s.toFixed(0)} s in all. Figures on a busy machine run worse; compare runs on the same load.`,
    '',
  ].join('\n');
}

/** Set on Ctrl+C: what fails after it is the interruption, not a result. */
let interruptedBy: NodeJS.Signals | undefined;

async function main(): Promise<number> {
  const started = performance.now();
  if (!existsSync(path.join(DIST, 'server', 'entry-server.js'))) {
    console.error(`bench: the build in ${DIST} is missing: run npm run build first`);
    return 2;
  }
  if (!existsSync(CHROME_PATH)) {
    console.error(`bench: Chromium not found at ${CHROME_PATH} (set CHROME_PATH)`);
    return 2;
  }

  const stub = benchStubSearch();
  const writes = await benchStubWrites();
  console.error(`bench: stub writes measured (${elapsed(started)})`);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-'));
  let server: RunningShop | undefined;
  let browser: Browser | undefined;
  let lighthouse: LighthouseSession | undefined;
  // The temporary data goes only after the server has stopped, or its last write would bring
  // the folder back.
  const stop = stopOnce(
    async () => {
      await browser?.close().catch(() => {});
      await lighthouse?.close().catch(() => {});
      await server?.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
    (signal) => (interruptedBy = signal),
  );
  const views: FirstView[] = [];
  let web: BrowserFigures;
  let loading: LoadingFigures;
  let deadTaps: DeadTapFigures;
  let pages: PageFigures;
  let imageRoute: ImageRouteFigures;
  let pictures: { home: PictureView; product: PictureView };
  let audits: LighthouseRoute[];
  let chromiumVersion: string;
  try {
    // Before anything else runs: the server under load has the machine to itself.
    pages = await benchPages();
    console.error(`bench: pages rendered (${elapsed(started)})`);
    imageRoute = await benchImageRoute();
    console.error(`bench: image route timed (${elapsed(started)})`);
    server = await startBenchShop(DIST, dataDir);
    const baseUrl = server.url.replace(/\/+$/, '');
    browser = await chromium.launch({
      executablePath: CHROME_PATH,
      headless: true,
      args: CHROME_FLAGS,
      // Ctrl+C is handled above: Playwright's own handler would exit before the server stopped.
      handleSIGINT: false,
      handleSIGTERM: false,
    });
    chromiumVersion = browser.version();
    for (const route of ROUTES)
      views.push(await measureFirstView(browser, baseUrl, route, path.join(DIST, 'client')));
    console.error(`bench: first views measured (${elapsed(started)})`);
    // After the first views: the pictures were resized then, as for any visitor but the first.
    pictures = {
      home: await measurePictures(browser, baseUrl, '/'),
      product: await measurePictures(browser, baseUrl, '/product/7'),
    };
    console.error(`bench: pictures measured (${elapsed(started)})`);
    web = await benchSearchInBrowser(browser, baseUrl);
    console.error(`bench: search timed in the browser (${elapsed(started)})`);
    loading = await benchLoadingState(browser, baseUrl);
    console.error(`bench: loading states timed (${elapsed(started)})`);
    deadTaps = await benchDeadTaps(browser, baseUrl);
    console.error(`bench: dead taps counted (${elapsed(started)})`);
    // Lighthouse gets the machine to itself.
    await browser.close();
    browser = undefined;
    lighthouse = await startLighthouse(CHROME_PATH);
    audits = await auditAll(lighthouse, baseUrl);
    console.error(`bench: Lighthouse done (${elapsed(started)})`);
  } finally {
    await stop();
  }

  const home = views.find((view) => view.route === '/');
  if (!home) throw new Error('no first view of /');
  const budgetMet = home.js.gzip <= HOME_BUDGET.jsGzip && home.css.gzip <= HOME_BUDGET.cssGzip;
  const report: Report = {
    date: new Date().toISOString(),
    machine: machine(),
    chromium: chromiumVersion,
    lighthouse_version: lighthouseVersion(),
    duration_s: (performance.now() - started) / 1000,
    first_view: {
      definition:
        `A first-time visitor (empty cache, no cookies), 390x844, light theme, no interaction: ` +
        `every JS and CSS file from the server until the network has been idle 500 ms plus ` +
        `${QUIET_AFTER_IDLE_MS / 1000} s more, each counted once, compressed here with zlib ` +
        `(default settings) from the bytes in the build.`,
      budget: {
        ...HOME_BUDGET,
        js_gzip: home.js.gzip,
        css_gzip: home.css.gzip,
        met: budgetMet,
      },
      routes: views,
    },
    lighthouse: {
      runs_per_route: LIGHTHOUSE_RUNS,
      target_score: TARGET_SCORE,
      target_cls: TARGET_CLS,
      target_paint: TARGET_PAINT,
      routes: audits,
    },
    search: { stub, browser: web },
    stub_writes: writes,
    loading_state: loading,
    pages,
    images: {
      ...pictures,
      route: imageRoute,
      met: imagesMet(
        pictures.home,
        pictures.product,
        audits.find((audit) => audit.route === '/product/7')?.lcp_ms ?? Infinity,
      ),
    },
    dead_taps: deadTaps,
  };
  const md = markdown(report);
  console.log(md);
  await mkdir(path.dirname(REPORT_JSON), { recursive: true });
  await writeFile(REPORT_JSON, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(REPORT_MD, md);
  console.log(
    `Written to ${path.relative(REPO_ROOT, REPORT_JSON)} and ${path.relative(REPO_ROOT, REPORT_MD)}`,
  );
  const met =
    budgetMet &&
    audits.every((audit) => audit.met) &&
    views.every((view) => view.external.length === 0) &&
    stub.met &&
    web.met &&
    writes.met &&
    loading.met &&
    pages.met &&
    report.images.met &&
    deadTaps.met;
  return met ? 0 : 1;
}

process.exitCode = await main().catch((error: unknown) => {
  if (interruptedBy) return 130;
  throw error;
});
