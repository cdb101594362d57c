// `npm run bench:edge:backend` (issue 30, item 6; the docs say what it measures): /healthz
// probed every 50 ms, with the backend well first (what this machine gives /healthz anyway). What
// the shop answers is tests/e2e/backend-answers.test.ts's (/api's: tests/host/backend-proxy.test.ts).
// Then (issue 39) a backend that trickles every answer a byte a second: how long the slowest of
// the browser's /api calls takes to end, at the default PROXY_TIMEOUT_MS (what they end with is
// tests/e2e/backend-deadline.test.ts's).
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTINGS } from '../host/process/settings.ts';
import {
  elsewhereBackend,
  stubBackend,
  tricklingBackend,
  twistedBackend,
} from '../tests/e2e/fault-backends.ts';
import { runBench } from './lib/main.ts';
import { allMet, targetTable, writeReport } from './lib/report.ts';
import { procMb, REPO_ROOT, startShopChild } from './lib/shop.ts';
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
/** /api calls at once to a trickling backend, and what the deadline may take beyond itself. */
const TRICKLED_CALLS = 20;
const DEADLINE_SLACK_MS = 1000;

const timed = (url: string) => timedGet(url, CAP_MS);

/** A GET's status and its time until its body has ended, whatever the status (0: failed). */
async function timedEnd(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(CAP_MS) });
    await answer.arrayBuffer();
    return { status: answer.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** /healthz every 50 ms until `during` (which never fails) is done: each answer's time. */
async function healthWhile(shop: string, during: Promise<unknown>): Promise<number[]> {
  let running = true;
  void during.then(() => (running = false));
  const times: number[] = [];
  while (running) {
    times.push(await timed(`${shop}/healthz`));
    await sleep(50);
  }
  return times;
}

await runBench(async (atExit) => {
  const stub = await stubBackend();
  atExit(() => stub.close());
  const elsewhere = await elsewhereBackend();
  atExit(() => elsewhere.close());
  const backend = await twistedBackend(stub.url, elsewhere.url);
  atExit(() => backend.close());
  const env = { API_TARGET: backend.url, CATALOG_CACHE_FRESH_MS: '0' };
  const shop = await startShopChild(atExit, env, SHOP_ROOT);
  await timed(`${shop.url}/catalog`);

  const idle = await healthWhile(shop.url, sleep(2000));
  const rssBeforeMb = Math.round(procMb(shop.child.pid, 'VmHWM'));
  backend.twist('huge', (req) => req.method === 'GET');
  const until = performance.now() + HUGE_WINDOW_MS;
  let views = 0;
  const visitors = Array.from({ length: 4 }, async (_, visitor) => {
    for (let i = visitor; performance.now() < until; i += 1, views += 1) {
      await timed(`${shop.url}${PATHS[i % PATHS.length] ?? '/'}`);
    }
  });
  const times = await healthWhile(shop.url, Promise.all(visitors));
  const healthMaxMs = Math.round(Math.max(...times));
  const rssPeakMb = Math.round(procMb(shop.child.pid, 'VmHWM'));
  const targets = [
    {
      figure: '/healthz while the backend sends 50 MB answers (max)',
      value: `${healthMaxMs} ms (p95 ${Math.round(percentile(times, 0.95))} ms, ${times.length} probes; idle max ${Math.round(Math.max(...idle))} ms)`,
      target: `≤ ${HEALTH_TARGET_MS} ms`,
      met: healthMaxMs <= HEALTH_TARGET_MS,
    },
    {
      figure: 'RSS peak of the instance (VmHWM)',
      value: `${rssPeakMb} MB (${rssBeforeMb} MB before the 50 MB answers)`,
      target: `≤ ${RSS_TARGET_MB} MB`,
      met: rssPeakMb <= RSS_TARGET_MB,
    },
  ];
  await shop.close();

  // A backend that answers at once and then a byte a second, for ever: each call ends at the
  // deadline, and none later.
  const trickle = await tricklingBackend();
  atExit(() => trickle.close());
  const deadlineMs = SETTINGS.proxyTimeoutMs.default;
  const trickled = await startShopChild(atExit, { API_TARGET: trickle.url }, SHOP_ROOT);
  const calls = await Promise.all(
    Array.from({ length: TRICKLED_CALLS }, (_, i) =>
      timedEnd(`${trickled.url}/api/catalog/product_search?q=${i}`),
    ),
  );
  const slowestMs = Math.round(Math.max(...calls.map((call) => call.ms)));
  const statuses = [...new Set(calls.map((call) => call.status))].join(', ');
  targets.push({
    figure: `the slowest of ${TRICKLED_CALLS} \`/api\` calls, the backend trickling a byte a second`,
    value: `${slowestMs} ms (fastest ${Math.round(Math.min(...calls.map((call) => call.ms)))} ms; answered ${statuses})`,
    target: `≤ ${deadlineMs + DEADLINE_SLACK_MS} ms (PROXY_TIMEOUT_MS, ${deadlineMs} ms, and the answer)`,
    met: slowestMs <= deadlineMs + DEADLINE_SLACK_MS,
  });
  const md = `Shop at ${SHOP_ROOT}; ${views} views in ${HUGE_WINDOW_MS / 1000} s.\n\n${targetTable(targets)}`;
  const figures = {
    shop_root: SHOP_ROOT,
    views,
    healthMaxMs,
    rssBeforeMb,
    rssPeakMb,
    trickled: calls,
    targets,
  };
  await writeReport('bench-edge-backend', 'A backend sending 50 MB answers', figures, md);
  return allMet(targets);
});
