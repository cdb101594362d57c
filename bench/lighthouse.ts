// Lighthouse mobile audits (performance only) of routes of the shop, in Debian's Chromium.
// Lighthouse's defaults: a Moto G Power sized screen and simulated slow 4G with a 4x slower CPU.
// Part of `npm run bench`; `npm run bench:lighthouse -- /news /` audits the given routes alone
// (default /news) against a production server of its own, BENCH_LH_RUNS times each (default 3).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { RunningShop } from '../host/app.ts';
import { startBenchShop } from './bench-shop.ts';
import { stopOnce } from './stop-once.ts';

/** Issue 15's targets for every audited route. */
export const TARGET_SCORE = 0.98;
export const TARGET_CLS = 0.01;

/**
 * Telegram's post widget on /news would reach the internet: the audits block it (as the e2e
 * tests do), so /news is measured as a phone sees it when the widget cannot load, its link cards.
 */
const BLOCKED_HOSTS = ['telegram.org', 't.me'];
const isBlocked = (address: string) => BLOCKED_HOSTS.includes(new URL(address).hostname);

/** Chromium's flags: headless, and nothing reaching out to the internet on its own. */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface LighthouseFigures {
  route: string;
  /** 0 to 1. */
  score: number;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  /** Requests Lighthouse saw going anywhere but the shop's own server (and not blocked). */
  external: string[];
  /** Requests to BLOCKED_HOSTS the page tried, which Chromium stopped before they left. */
  blocked: string[];
  /** Set when Lighthouse reported a problem with the run itself. */
  warning?: string;
}

export interface LighthouseSession {
  audit(url: string, route: string): Promise<LighthouseFigures>;
  close(): Promise<void>;
}

function numeric(lhr: { audits: Record<string, { numericValue?: number }> }, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id}`);
  return value;
}

/** Starts one Chromium for all the audits; close() stops it. */
export async function startLighthouse(chromePath: string): Promise<LighthouseSession> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
    // The caller stops Chromium on Ctrl+C (close()); the launcher's own handler would exit the
    // process at once, before the caller's server and temporary data were seen to.
    handleSIGINT: false,
  });
  return {
    async audit(url, route) {
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
        external,
        blocked,
        ...(lhr.runWarnings.length > 0 ? { warning: lhr.runWarnings.join(' ') } : {}),
      };
    },
    async close() {
      chrome.kill();
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

// `npm run bench:lighthouse -- ROUTE…`: these audits alone, against a server of their own.
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Set on Ctrl+C: what fails after it is the interruption, not a result. */
let interruptedBy: NodeJS.Signals | undefined;

async function main(routes: string[]): Promise<number> {
  const dist = path.resolve(process.env.BENCH_DIST ?? path.join(REPO_ROOT, 'dist'));
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path.join(dist, 'server', 'entry-server.js'))) {
    console.error(`bench:lighthouse: the build in ${dist} is missing: run npm run build first`);
    return 2;
  }
  const runs = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3) || 3);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-lighthouse-'));
  let server: RunningShop | undefined;
  let session: LighthouseSession | undefined;
  // The temporary data goes only after the server has stopped.
  const stop = stopOnce(
    async () => {
      await session?.close().catch(() => {});
      await server?.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
    (signal) => (interruptedBy = signal),
  );
  const results = new Map<string, LighthouseFigures[]>(routes.map((route) => [route, []]));
  try {
    server = await startBenchShop(dist, dataDir);
    const base = server.url.replace(/\/+$/, '');
    session = await startLighthouse(chromePath);
    // One unmeasured load of each route: a just-started server's first renders are slower.
    for (const route of routes) await session.audit(`${base}${route}`, route);
    for (let round = 0; round < runs; round += 1) {
      for (const route of routes) {
        const figures = await session.audit(`${base}${route}`, route);
        results.get(route)?.push(figures);
        console.error(`lighthouse ${round + 1}/${runs} ${route}: ${figures.score.toFixed(2)}`);
      }
    }
  } finally {
    await stop();
  }
  const [load1 = 0] = os.loadavg();
  console.log(
    `| Route | Score (target ≥ ${TARGET_SCORE}) | FCP | LCP | TBT | CLS (target ≤ ${TARGET_CLS}) | All runs |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  let met = true;
  for (const [route, all] of results) {
    const run = medianRun(all);
    met &&= run.score >= TARGET_SCORE && run.cls <= TARGET_CLS && run.external.length === 0;
    console.log(
      `| \`${route}\` | ${run.score.toFixed(2)} | ${(run.fcp_ms / 1000).toFixed(2)} s | ${(run.lcp_ms / 1000).toFixed(2)} s | ${Math.round(run.tbt_ms)} ms | ${run.cls.toFixed(3)} | ${all.map((figures) => figures.score.toFixed(2)).join(', ')} |`,
    );
    if (run.external.length > 0)
      console.log(`${route}: requests off the machine: ${run.external.join(', ')}`);
    if (run.blocked.length > 0)
      console.log(`${route}: blocked by the audit: ${run.blocked.join(', ')}`);
  }
  console.log(
    `\nMedian of ${runs} run(s) by score; ${os.cpus().length} CPUs, load average ${load1.toFixed(2)} at the end. Met: ${met ? 'yes' : 'NO'}.`,
  );
  return met ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const routes = process.argv.slice(2);
  process.exitCode = await main(routes.length > 0 ? routes : ['/news']).catch((error: unknown) => {
    if (interruptedBy) return 130;
    throw error;
  });
}
