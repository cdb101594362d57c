// `npm run bench:scale` (issue 25; it builds first): deploy/nginx.conf in front of two instances
// (tests/e2e/nginx-recipe.ts), on one stub behind a counter of its calls. The docs say what it
// measures; here, why as it does:
//   - the replayed browse asks as Chromium does (its Accept-Encoding: nginx's cache keys on it; a
//     quarter in the dark theme; after the first page each newcomer carries the session and CSRF
//     cookies of the app's first call, and half accept the cookie notice), 20 at a time, each
//     from a loopback address of their own (nginx limits searches per address);
//   - the render beside the base (BENCH_BASE, default ed4036b, the commit issue 25 measured: 44/s)
//     runs each checkout's `host/main.ts` with its own embedded stub, as `npm start` does: what
//     the base also spent on a newcomer (their basket call, a session, no kept catalogue answers)
//     counts as well as the render. The base is built in a temporary worktree.
// Targets (issue 25): nginx's rate ≥ 10x the instance's, with p99 ≤ 20 ms; hit ratio ≥ 95%; 0
// backend calls for the replay from the cache; this build's render of `/` ≥ 2x the base's.
import { rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { httpBackend, proxyHandler, stubBackend } from '../tests/e2e/fault-backends.ts';
import { REPO_ROOT, startInstances, startRecipe } from '../tests/e2e/nginx-recipe.ts';
import { visitorWithBasket } from '../tests/e2e/visitor-cookies.ts';
import { runBench } from './lib/main.ts';
import { allMet, type Target, targetTable, row, writeReport } from './lib/report.ts';
import { baseCheckout, requireBuild, startShopChild } from './lib/shop.ts';
import { loopbackAddress, rate, Visitor } from './lib/visitor.ts';
import { wrkRate } from './lib/wrk.ts';

const BASE = process.env.BENCH_BASE ?? 'ed4036b';
const NEWCOMERS = 200;
const AT_ONCE = 20;
const BROWSE = [
  '/',
  '/catalog',
  '/section/14',
  '/product/7',
  '/product/4',
  '/product/17',
  '/search?q=малина',
];
const TARGET = {
  times_instance: 10,
  nginx_p99_ms: 20,
  hit_ratio: 0.95,
  render_times_base: 2,
  // Issue 40: nginx's kept / beside the same bytes as a file, the same log line written for both.
  kept_times_static: 0.9,
};
/** A newcomer's browser asking for a page, as wrk sends it to both. */
const PAGE_HEADERS = { Accept: 'text/html', 'Accept-Encoding': 'gzip' };

/** The body nginx sends for `url` with PAGE_HEADERS, as sent (gzip), and its cache status. */
function rawBody(url: string): Promise<{ body: Buffer; cache: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: PAGE_HEADERS, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({
          body: Buffer.concat(chunks),
          cache: String(answer.headers['x-cache-status'] ?? ''),
        }),
      );
      answer.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * nginx's kept `/` beside the same nginx sending the same bytes as a static file (under /assets,
 * which the build's files take), with wrk, in alternating rounds: the cost of the page cache's
 * key, its maps and headers over nginx's cheapest answer. Both write the same access log line.
 */
async function keptBesideStatic(front: string, atExit: (stop: () => Promise<unknown>) => void) {
  await rawBody(`${front}/`);
  const kept = await rawBody(`${front}/`);
  if (kept.cache !== 'HIT') throw new Error(`/ is not kept by nginx: ${kept.cache}`);
  const file = path.join(REPO_ROOT, 'dist', 'client', 'assets', 'bench-scale-home.bin');
  await writeFile(file, kept.body);
  atExit(() => rm(file, { force: true }));
  const rounds = { kept: [] as number[], static: [] as number[], non2xx: 0 };
  for (let round = 0; round < 3; round += 1) {
    const page = await wrkRate(`${front}/`, PAGE_HEADERS);
    const same = await wrkRate(`${front}/assets/bench-scale-home.bin`, PAGE_HEADERS);
    rounds.kept.push(page.per_s);
    rounds.static.push(same.per_s);
    rounds.non2xx += page.non2xx + same.non2xx;
  }
  return { bytes: kept.body.length, ...rounds };
}

/** The stub behind a proxy that counts the requests it passes on: the backend's calls. */
async function countedBackend() {
  const stub = await stubBackend();
  const agent = new Agent({ keepAlive: true });
  const pass = proxyHandler(stub.url, agent, (send) => send());
  let calls = 0;
  const counter = await httpBackend(
    (req, res) => {
      calls += 1;
      pass(req, res);
    },
    () => agent.destroy(),
  );
  return {
    url: counter.url,
    calls: () => calls,
    close: async () => {
      await counter.close();
      await stub.close();
    },
  };
}

/** One newcomer's walk through the catalogue: each page's X-Cache-Status. */
async function browse(front: string, newcomer: number): Promise<string[]> {
  // Each newcomer at an address of their own, as 200 shoppers are: nginx limits searches per
  // address, and 200 from one would be a flood to it.
  const address = loopbackAddress(newcomer);
  const cookies: Record<string, string> = newcomer % 4 === 0 ? { theme: 'dark' } : {};
  const visitor = new Visitor(new URL(front), 15_000, cookies, address);
  const statuses: string[] = [];
  for (const [step, pathname] of BROWSE.entries()) {
    const answer = await visitor.view(pathname, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    if (answer.status !== 200) throw new Error(`${pathname}: ${answer.status}`);
    statuses.push(String(answer.headers['x-cache-status'] ?? 'none'));
    if (step === 0) {
      // The app starts: its first call brings the session and the CSRF token.
      await visitor.view('/api/catalog/basket', { Accept: 'application/json' });
      if (newcomer % 2 === 0) visitor.cookies.set('cookieAccepted', 'true');
    }
  }
  return statuses;
}

/** 200 newcomers' walks, 20 at a time; the views' cache statuses and the backend's calls. */
async function replay(front: string, backend: { calls(): number }) {
  const statuses: string[] = [];
  let next = 0;
  const before = backend.calls();
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < NEWCOMERS) {
        next += 1;
        statuses.push(...(await browse(front, next)));
      }
    }),
  );
  const hits = statuses.filter((status) => ['HIT', 'STALE', 'UPDATING'].includes(status)).length;
  // The app's own call per newcomer goes through to the backend: not a page's.
  const calls = backend.calls() - before - NEWCOMERS;
  return { views: statuses.length, hits, hit_ratio: hits / statuses.length, backend_calls: calls };
}

const per1000 = (calls: number, views: number) => ((calls / views) * 1000).toFixed(1);
const times = (figures: Awaited<ReturnType<typeof rate>>) =>
  `${figures.per_s}/s, p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms`;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

await runBench(async (atExit) => {
  requireBuild();
  const backend = await countedBackend();
  atExit(() => backend.close());
  const [one, two] = await startInstances(2, backend.url);
  for (const shop of [one, two]) if (shop) atExit(() => shop.close());
  if (!one || !two) throw new Error('two instances were asked for');
  const recipe = await startRecipe([one, two]);
  atExit(() => recipe.close());

  console.log('1. a replayed browse by 200 newcomers through nginx');
  const cold = await replay(recipe.url, backend);
  const warm = await replay(recipe.url, backend);
  console.log("2. newcomers' / from an instance, then through nginx; a basket visitor's");
  let callsBefore = 0;
  const direct = await rate(`${one.url}/`, 10, {}, () => (callsBefore = backend.calls()));
  const directCalls = backend.calls() - callsBefore;
  const viaNginx = await rate(`${recipe.url}/`);
  const cookie = await visitorWithBasket(recipe.url, ['7']);
  const visitor = await rate(`${recipe.url}/`, 10, { cookie });

  console.log("4. nginx's kept / beside the same bytes as a static file (wrk, in turns)");
  const kept = await keptBesideStatic(recipe.url, atExit);
  const keptTimes = mean(kept.kept) / mean(kept.static);

  const render = { base: [] as number[], this: [] as number[] };
  if (BASE !== 'none') {
    console.log(`3. the render of / beside ${BASE}, each as npm start runs it (its own stub)`);
    const baseRoot = await baseCheckout(BASE, atExit);
    const [baseUrl = '', thisUrl = ''] = await Promise.all(
      [baseRoot, REPO_ROOT].map(async (root) => (await startShopChild(atExit, {}, root)).url),
    );
    // In turns, so that a machine busy with something else weighs on both alike.
    for (let turn = 0; turn < 2; turn += 1) {
      render.base.push((await rate(`${baseUrl}/`)).per_s);
      render.this.push((await rate(`${thisUrl}/`)).per_s);
    }
  }

  const timesInstance = viaNginx.per_s / direct.per_s;
  const renderTimes = BASE === 'none' ? undefined : mean(render.this) / mean(render.base);
  const rates = [direct, viaNginx, visitor];
  const targets: Target[] = [
    row(
      "newcomers' `/` from an instance (autocannon -c 10, 10 s after 3 s)",
      `${times(direct)}; ${per1000(directCalls, direct.requests)} backend calls per 1,000`,
    ),
    {
      figure: "newcomers' `/` through nginx, beside the instance's",
      value: `${times(viaNginx)}: ${timesInstance.toFixed(1)}x`,
      target: `≥ ${TARGET.times_instance}x, p99 ≤ ${TARGET.nginx_p99_ms} ms`,
      met: timesInstance >= TARGET.times_instance && viaNginx.p99_ms <= TARGET.nginx_p99_ms,
    },
    row("a basket visitor's `/` through nginx", times(visitor)),
    {
      figure: `hit ratio of a replayed browse by ${NEWCOMERS} newcomers, from a cold cache`,
      value: `${(cold.hit_ratio * 100).toFixed(1)}% of ${cold.views} views; ${cold.backend_calls} backend calls, ${per1000(cold.backend_calls, cold.views)} per 1,000 views`,
      target: `≥ ${TARGET.hit_ratio * 100}%`,
      met: cold.hit_ratio >= TARGET.hit_ratio,
    },
    {
      figure: 'the browse again, all from the cache',
      value: `${warm.backend_calls} calls, ${warm.hits} of ${warm.views} hits`,
      target: '0 backend calls',
      met: warm.backend_calls === 0 && warm.hits === warm.views,
    },
    {
      figure: `this build's render of \`/\` beside ${BASE}'s, by one instance in turns`,
      value:
        renderTimes === undefined
          ? 'skipped (BENCH_BASE=none)'
          : `${render.this.join(', ')}/s beside ${render.base.join(', ')}/s: ${renderTimes.toFixed(2)}x`,
      target: `≥ ${TARGET.render_times_base}x`,
      met: renderTimes === undefined || renderTimes >= TARGET.render_times_base,
    },
    {
      figure: `nginx's kept \`/\` beside the same ${kept.bytes} bytes as a static file (wrk -t2 -c50, 3 turns of 10 s)`,
      value: `${kept.kept.join(', ')}/s beside ${kept.static.join(', ')}/s: ${keptTimes.toFixed(2)}x; ${kept.non2xx} non-2xx`,
      target: `≥ ${TARGET.kept_times_static}x`,
      met: keptTimes >= TARGET.kept_times_static && kept.non2xx === 0,
    },
    {
      figure: 'errors and non-2xx answers in the three rates',
      value: rates.map((r) => r.failed).join(', '),
      target: '0',
      met: rates.every((r) => r.failed === 0),
    },
  ];
  const figures = { cold, warm, direct, directCalls, viaNginx, visitor, kept, render, targets };
  await writeReport('bench-scale', 'bench:scale', figures, targetTable(targets));
  return allMet(targets);
});
