// Lighthouse mobile audits (performance only) of routes of the shop, in Debian's Chromium.
// Lighthouse's defaults: a Moto G Power sized screen and simulated slow 4G with a 4x slower CPU.
// Part of `npm run bench`; `npm run bench:lighthouse -- /news /` audits the given routes alone
// (default /news) against a production server of its own, BENCH_LH_RUNS times each (default 3),
// after one unmeasured load each (a just-started server's first renders are slower).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_PATH, LAUNCH_ARGS } from './lib/browsers.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { mark, writeReport } from './lib/report.ts';
import { startBenchShop } from './lib/shop.ts';

/** Issue 15's targets for every audited route. */
export const TARGET_SCORE = 0.98;
export const TARGET_CLS = 0.01;

/**
 * Telegram's post widget on /news would reach the internet: the audits block it (as the e2e
 * tests do), so /news is measured as a phone sees it when the widget cannot load, its link cards.
 */
const BLOCKED_HOSTS = ['telegram.org', 't.me'];
const isBlocked = (address: string) => BLOCKED_HOSTS.includes(new URL(address).hostname);

/** BENCH_LH_RUNS: audits per route (3). */
export const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3) || 3);

export type LighthouseFigures = Awaited<
  ReturnType<Awaited<ReturnType<typeof startLighthouse>>['audit']>
>;

function numeric(lhr: { audits: Record<string, { numericValue?: number }> }, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id}`);
  return value;
}

/** Starts one Chromium (with the e2e tests' flags) for all the audits. */
export async function startLighthouse(atExit: AtExit) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: LAUNCH_ARGS,
    logLevel: 'silent',
    // The caller stops Chromium on Ctrl+C (close()); the launcher's own handler would exit the
    // process at once, before the caller's server and temporary data were seen to.
    handleSIGINT: false,
  });
  atExit(async () => chrome.kill());
  return {
    /** Audits `route` of the shop at `base`. */
    async audit(base: string, route: string) {
      const url = `${base}${route}`;
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        // The five metrics the score is made of, and the request list: the same score in about
        // half the time of all of the category's audits.
        onlyAudits: [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'cumulative-layout-shift',
          'speed-index',
          'network-requests',
        ],
        disableFullPageScreenshot: true,
        blockedUrlPatterns: BLOCKED_HOSTS.map((host) => `*://${host}/*`),
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      const score = lhr.categories.performance?.score;
      if (typeof score !== 'number') {
        throw new Error(`Lighthouse could not score ${url}: ${lhr.runtimeError?.message ?? '?'}`);
      }
      const origin = new URL(url).origin;
      const requests =
        (lhr.audits['network-requests']?.details as { items?: { url?: string }[] } | undefined)
          ?.items ?? [];
      const away = requests
        .map((item) => item.url ?? '')
        .filter((address) => /^https?:/.test(address) && new URL(address).origin !== origin);
      const external = away.filter((address) => !isBlocked(address));
      const blocked = [...new Set(away.filter(isBlocked))];
      return {
        route,
        score,
        fcp_ms: numeric(lhr, 'first-contentful-paint'),
        lcp_ms: numeric(lhr, 'largest-contentful-paint'),
        tbt_ms: numeric(lhr, 'total-blocking-time'),
        cls: numeric(lhr, 'cumulative-layout-shift'),
        // Requests to anywhere but the shop's own server and not blocked; those blocked.
        external,
        blocked,
        // Set when Lighthouse reported a problem with the run itself.
        ...(lhr.runWarnings.length > 0 ? { warning: lhr.runWarnings.join(' ') } : {}),
      };
    },
  };
}

/** The run with the median score (Lighthouse's own advice for reporting several runs). */
export function medianRun(runs: LighthouseFigures[]): LighthouseFigures {
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  const run = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!run) throw new Error('no Lighthouse run');
  return run;
}

/** Each route's median run, its figures and every run's score; `met` judges a median run. */
export function lighthouseTable(
  runsByRoute: LighthouseFigures[][],
  met: (run: LighthouseFigures) => boolean,
): string {
  const lines = [
    `| Route | Score (≥ ${TARGET_SCORE}) | FCP | LCP | TBT | CLS (≤ ${TARGET_CLS}) | | All runs |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const runs of runsByRoute) {
    const r = medianRun(runs);
    lines.push(
      `| \`${r.route}\` | ${r.score.toFixed(2)} | ${(r.fcp_ms / 1000).toFixed(2)} s | ${(r.lcp_ms / 1000).toFixed(2)} s | ${Math.round(r.tbt_ms)} ms | ${r.cls.toFixed(3)} | ${mark(met(r))} | ${runs.map((run) => run.score.toFixed(2)).join(', ')} |`,
    );
    if (r.external.length > 0)
      lines.push('', `**Requests off the machine:** ${r.external.join(', ')}`);
    if (r.blocked.length > 0)
      lines.push('', `Blocked (Telegram's widget): ${r.blocked.join(', ')}`);
    if (r.warning) lines.push('', `Lighthouse warning on ${r.route}: ${r.warning}`);
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    const routes = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/news'];
    const runs = LIGHTHOUSE_RUNS;
    const base = (await startBenchShop(atExit)).url.replace(/\/+$/, '');
    const session = await startLighthouse(atExit);
    for (const route of routes) await session.audit(base, route);
    const results = routes.map((): LighthouseFigures[] => []);
    for (let round = 0; round < runs; round += 1) {
      for (const [index, route] of routes.entries()) {
        const figures = await session.audit(base, route);
        results[index]?.push(figures);
        console.error(`lighthouse ${round + 1}/${runs} ${route}: ${figures.score.toFixed(2)}`);
      }
    }
    const met = (run: LighthouseFigures) =>
      run.score >= TARGET_SCORE && run.cls <= TARGET_CLS && run.external.length === 0;
    const table = lighthouseTable(results, met);
    const md = `Median of ${runs} run(s) by score.\n\n${table}`;
    await writeReport('bench-lighthouse', 'Lighthouse mobile', results, md);
    return results.every((all) => met(medianRun(all)));
  });
}
