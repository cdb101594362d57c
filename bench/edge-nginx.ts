// `npm run bench:edge:nginx` (issue 30; it builds first): the recipe (tests/e2e/nginx-recipe.ts:
// deploy/nginx.conf in front of two instances, each `host/main.ts` a process of its own, and
// the stub behind them) as an attacker and an operator try it. It measures, in one run:
//   1. 502s seen by others after bad requests: for 10 s, twice a second, a request with a control
//      byte in a header (or three 7 KB headers, in turn), while another visitor makes an `/api`
//      call every 200 ms; every answer of theirs that is not 200 counts;
//   2. failed requests during a rolling restart under load: 8 visitors in a loop (`/api` GETs, and
//      a basket visitor's product and order pages) while each instance in turn is stopped with
//      SIGTERM, started again on its port and waited for (/healthz), as README's Deploy says;
//   3. a newcomer's `/catalog` answer time (p50, p95) while 2,500 connections trickle their
//      headers, a line a second, each opened again as soon as nginx closes it: 60 probes, one
//      every 250 ms, each given 5 s (no answer by then counts as 5 s).
// Targets (issue 30): 0 502s, 0 failed requests, p95 <= 1 s. Writes reports/bench-edge-nginx.json
// (the table is printed); exits with 1 when a target is missed. Everything it starts is stopped
// by its handle on exit and on Ctrl+C.
import { mkdir, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  REPO_ROOT,
  startShopProcess,
  type StubRecipe,
  startStubRecipe,
} from '../tests/e2e/nginx-recipe.ts';
import { visitorWithBasket } from '../tests/e2e/visitor-cookies.ts';
import { stopOnce } from './stop-once.ts';

const TARGET = { others_502: 0, restart_failed: 0, slow_clients_p95_ms: 1000 };
const SLOW_CLIENTS = 2500;
const PROBE_CAP_MS = 5000;

/** A GET through nginx: its status, or 0 when it failed or took longer than `capMs`. */
async function get(url: string, headers: Record<string, string> = {}, capMs = 30_000) {
  try {
    const answer = await fetch(url, { headers, signal: AbortSignal.timeout(capMs) });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    return 0;
  }
}

/** Sends `raw` to nginx as it is; resolves when nginx has closed the connection. */
function sendRaw(front: string, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(front).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.write(raw, 'latin1');
  });
}

async function badRequests(front: string) {
  const bad = [
    'X-Note: a\u0001b',
    [1, 2, 3].map((n) => `X-Big-${n}: ${'b'.repeat(7000)}`).join('\r\n'),
  ];
  // nginx holds kept-alive connections to both instances, as under any load.
  await Promise.all(Array.from({ length: 8 }, () => get(`${front}/api/catalog/section`)));
  const badAnswers: Record<string, number> = {};
  const until = Date.now() + 10_000;
  const attacker = (async () => {
    for (let i = 0; Date.now() < until; i += 1) {
      const path = i % 2 ? '/api/catalog/section' : `/catalog?bad=${i}`;
      const status = await sendRaw(
        front,
        `GET ${path} HTTP/1.1\r\nHost: shop\r\n${bad[i % bad.length]}\r\nConnection: close\r\n\r\n`,
      );
      badAnswers[status] = (badAnswers[status] ?? 0) + 1;
      await sleep(500);
    }
  })();
  let calls = 0;
  let failed = 0;
  while (Date.now() < until) {
    calls += 1;
    if ((await get(`${front}/api/catalog/section`)) !== 200) failed += 1;
    await sleep(200);
  }
  await attacker;
  return { others_calls: calls, others_failed: failed, bad_requests_answered: badAnswers };
}

async function rollingRestart(recipe: StubRecipe) {
  const front = recipe.url;
  const basket = await visitorWithBasket(front, ['7']);
  const load: [string, Record<string, string>][] = [
    ['/api/catalog/section', {}],
    ['/api/catalog/product_retrieve/7', {}],
    ['/product/7', { cookie: basket }],
    ['/order', { cookie: basket }],
  ];
  let running = true;
  let done = 0;
  const failed: Record<string, number> = {};
  const visitor = async (start: number) => {
    for (let i = start; running; i += 1) {
      const [path, headers] = load[i % load.length] ?? ['/', {}];
      const status = await get(`${front}${path}`, headers);
      done += 1;
      if (status !== 200) failed[`${path} ${status}`] = (failed[`${path} ${status}`] ?? 0) + 1;
    }
  };
  const visitors = Array.from({ length: 8 }, (_, i) => visitor(i));
  const started = Date.now();
  for (const index of [0, 1] as const) {
    await sleep(1000);
    const { port } = recipe.shops[index];
    await recipe.shops[index].close();
    recipe.shops[index] = await startShopProcess({
      port,
      env: { API_TARGET: recipe.backend.url.replace(/\/$/, '') },
    });
  }
  await sleep(1000);
  running = false;
  await Promise.all(visitors);
  return {
    requests: done,
    failed: Object.values(failed).reduce((sum, count) => sum + count, 0),
    failures: failed,
    duration_s: Math.round((Date.now() - started) / 100) / 10,
  };
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] ?? NaN;
}

async function slowClients(front: string) {
  const port = Number(new URL(front).port);
  const sockets = new Set<Socket>();
  let opened = 0;
  let trickling = true;
  const open = () => {
    if (!trickling) return;
    opened += 1;
    const socket = connect(port, '127.0.0.1');
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      // A persistent attacker: a closed connection is opened again.
      setTimeout(open, 10);
    });
    socket.write('GET /catalog HTTP/1.1\r\nHost: shop\r\n');
  };
  for (let i = 0; i < SLOW_CLIENTS; i += 1) open();
  const trickle = setInterval(() => {
    for (const socket of sockets)
      socket.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`);
  }, 1000);
  // Every connection is open and has sent its first bytes.
  await sleep(3000);
  const times: number[] = [];
  let unanswered = 0;
  for (let i = 0; i < 60; i += 1) {
    const start = performance.now();
    const status = await get(`${front}/catalog`, {}, PROBE_CAP_MS);
    if (status !== 200) unanswered += 1;
    times.push(status === 200 ? performance.now() - start : PROBE_CAP_MS);
    await sleep(250);
  }
  const holding = sockets.size;
  trickling = false;
  clearInterval(trickle);
  for (const socket of sockets) socket.destroy();
  return {
    connections_holding: holding,
    connections_opened: opened,
    probes: times.length,
    unanswered,
    p50_ms: Math.round(percentile(times, 0.5)),
    p95_ms: Math.round(percentile(times, 0.95)),
  };
}

let recipe: StubRecipe | undefined;
const stop = stopOnce(
  async () => {
    await Promise.all((recipe?.shops ?? []).map((shop) => shop.close().catch(() => {})));
    await recipe?.close().catch(() => {});
  },
  (signal) => console.error(`\n${signal}: stopping what the bench started`),
);

try {
  recipe = await startStubRecipe();
  const front = recipe.url;
  // A newcomer's /catalog is in nginx's cache, as it is in a shop that is open.
  await get(`${front}/catalog`);

  console.log('1. bad requests twice a second for 10 s, another visitor calling /api');
  const bad = await badRequests(front);
  console.log(`  ${bad.others_failed} of ${bad.others_calls} failed;`, bad.bad_requests_answered);

  console.log('2. a rolling restart under load');
  const restart = await rollingRestart(recipe);
  console.log(`  ${restart.failed} of ${restart.requests} failed`, restart.failures);

  console.log(`3. a newcomer's /catalog while ${SLOW_CLIENTS} connections trickle headers`);
  const slow = await slowClients(front);
  console.log(`  p50 ${slow.p50_ms} ms, p95 ${slow.p95_ms} ms, ${slow.unanswered} unanswered`);

  const checks = [
    ['502s seen by others after bad requests', bad.others_failed, TARGET.others_502, '0'],
    ['failed requests in a rolling restart', restart.failed, TARGET.restart_failed, '0'],
    [
      `/catalog p95 under ${SLOW_CLIENTS} slow clients (ms)`,
      slow.p95_ms,
      TARGET.slow_clients_p95_ms,
      '<= 1000',
    ],
  ] as const;
  const rows = checks.map(([what, value, max, target]) => ({
    what,
    value,
    target,
    met: value <= max,
  }));
  console.log('\n| figure | value | target | |\n| --- | --- | --- | --- |');
  for (const row of rows) {
    console.log(`| ${row.what} | ${row.value} | ${row.target} | ${row.met ? 'pass' : 'miss'} |`);
  }
  await mkdir(path.join(REPO_ROOT, 'reports'), { recursive: true });
  await writeFile(
    path.join(REPO_ROOT, 'reports', 'bench-edge-nginx.json'),
    `${JSON.stringify({ bad_requests: bad, rolling_restart: restart, slow_clients: slow, targets: rows }, null, 2)}\n`,
  );
  process.exitCode = rows.every((row) => row.met) ? 0 : 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stop();
}
