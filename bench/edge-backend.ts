// `npm run bench:edge:backend` (issue 30, item 6; it builds first): the production server
// (`startShopProcess`, a process of its own) in front of the stub, twisted to send 50 MB of JSON
// for every GET (tests/e2e/fault-backends.ts's twistedBackend). For 10 s, 4 visitors at a time go
// through five pages and the browser's /api call, while /healthz is asked every 50 ms; the
// instance's peak RSS is read (VmHWM). The same probes with the backend well come first, for what
// this machine gives /healthz anyway. Targets: /healthz max ≤ 200 ms, RSS peak ≤ 400 MB. Writes
// reports/bench-edge-backend.json and .md. BENCH_SHOP_ROOT runs another (built) checkout's server.
// What the shop answers for each odd answer (HTML with a 200, JSON of another shape, a redirect
// to another host, 50 MB, a redirected order_commit) is a test now:
// tests/e2e/backend-answers.test.ts; /api's x.html and x.js: tests/host/backend-proxy.test.ts.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { elsewhereBackend, stubBackend, twistedBackend } from '../tests/e2e/fault-backends.ts';
import { type Instance, REPO_ROOT, startShopProcess } from '../tests/e2e/nginx-recipe.ts';
import { runBench } from './lib/main.ts';
import { allMet, targetTable, writeReport } from './lib/report.ts';
import { percentile } from './lib/stats.ts';
import { timedGet } from './lib/visitor.ts';

const SHOP_ROOT = process.env.BENCH_SHOP_ROOT || REPO_ROOT;
const PATHS = [
  '/',
  '/catalog',
  '/section/1',
  '/product/7',
  '/search?q=малина',
  '/api/catalog/section_root',
];
/** No request waits longer: a shop that reads 50 MB for a minute shows as this. */
const CAP_MS = 60_000;
const HUGE_WINDOW_MS = 10_000;
const HEALTH_TARGET_MS = 200;
const RSS_TARGET_MB = 400;

const timed = (url: string) => timedGet(url, CAP_MS);

/** The instance's peak resident memory so far, in MB (Linux: VmHWM). */
function peakRssMb(instance: Instance): number {
  const status = readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

/** /healthz every 50 ms while `during` runs: each answer's time. */
async function healthWhile(shop: Instance, during: Promise<unknown>): Promise<number[]> {
  let running = true;
  const times: number[] = [];
  const probing = (async () => {
    while (running) {
      times.push(await timed(`${shop.url}/healthz`));
      await sleep(50);
    }
  })();
  await during;
  running = false;
  await probing;
  return times;
}

await runBench(async (atExit) => {
  const stub = await stubBackend();
  atExit(() => stub.close());
  const elsewhere = await elsewhereBackend();
  atExit(() => elsewhere.close());
  const backend = await twistedBackend(stub.url, elsewhere.url);
  atExit(() => backend.close());
  const shop = await startShopProcess({
    root: SHOP_ROOT,
    env: { API_TARGET: backend.url, CATALOG_CACHE_FRESH_MS: '0' },
  });
  atExit(() => shop.close());
  await timed(`${shop.url}/catalog`);

  const idle = await healthWhile(shop, sleep(2000));
  const rssBeforeMb = peakRssMb(shop);
  backend.twist('huge', (req) => req.method === 'GET');
  const until = performance.now() + HUGE_WINDOW_MS;
  let views = 0;
  const visitors = Array.from({ length: 4 }, async (_, visitor) => {
    for (let i = visitor; performance.now() < until; i += 1, views += 1) {
      await timed(`${shop.url}${PATHS[i % PATHS.length] ?? '/'}`);
    }
  });
  const times = await healthWhile(shop, Promise.all(visitors));
  const figures = {
    shop_root: SHOP_ROOT,
    views,
    health_probes: times.length,
    health_max_ms: Math.round(Math.max(...times)),
    health_p95_ms: Math.round(percentile(times, 0.95)),
    health_idle_max_ms: Math.round(Math.max(...idle)),
    rss_before_mb: rssBeforeMb,
    rss_peak_mb: peakRssMb(shop),
  };
  const targets = [
    {
      figure: '/healthz while the backend sends 50 MB answers (max)',
      value: `${figures.health_max_ms} ms (p95 ${figures.health_p95_ms} ms, ${figures.health_probes} probes; idle max ${figures.health_idle_max_ms} ms)`,
      target: `≤ ${HEALTH_TARGET_MS} ms`,
      met: figures.health_max_ms <= HEALTH_TARGET_MS,
    },
    {
      figure: 'RSS peak of the instance (VmHWM)',
      value: `${figures.rss_peak_mb} MB (${figures.rss_before_mb} MB before the 50 MB answers)`,
      target: `≤ ${RSS_TARGET_MB} MB`,
      met: figures.rss_peak_mb <= RSS_TARGET_MB,
    },
  ];
  const md = `Shop at ${SHOP_ROOT}; ${views} views in ${HUGE_WINDOW_MS / 1000} s.\n\n${targetTable(targets)}`;
  await writeReport(
    'bench-edge-backend',
    'A backend sending 50 MB answers',
    { ...figures, targets },
    md,
  );
  return allMet(targets);
});
