// The stub under a storm of basket writes (issue 13). Part of `npm run bench`; alone:
// `npm run bench:writes` (writes reports/bench-stub-writes.json, exits 1 when a target is
// missed).
//   - A data file of about 1 MB: the seed plus 3,000 anonymous sessions with baskets, written as
//     json-server writes it (pretty-printed).
//   - The stub's own CLI (tests/stub/stub-process.ts's spawnStub, without its test controls), in a
//     process of its own, on 127.0.0.1 and a free port.
//   - autocannon keeps 200 connections doing basket PUTs (a random session, product and valid
//     amount each) for 20 s. Meanwhile a newcomer (no cookies, a new connection) GETs the basket
//     every 200 ms, from a worker thread so that the load generator cannot delay its clock.
//   - Before those 20 s, a warm-up: the same load for 3 s on the just-started process, with its
//     own newcomer. The targets are the steady state's: in the first half second V8 is still
//     compiling the handlers, and a newcomer then waits up to some 300 ms. That is what a
//     shopper meets right after a restart under load; the warm-up's figures say how long, beside
//     the others, and are judged by no target.
// With 95 probes, the newcomer's p99 is its slowest answer.
// Figures: acknowledged (2xx) writes per second, PUT latency p50/p99, the newcomer's GET p50/p99.
// Targets: ≥ 500 writes/s, PUT p99 ≤ 500 ms, newcomer p99 ≤ 200 ms. Bounded: 23 s of load, every
// request of it on loopback, the server stopped by its process id however the bench ends.
// BENCH_NODE_ARGS adds flags to the stub's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
import { randomBytes } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { StubData } from '../stub-server/db.ts';
import { buildSeed } from '../stub-server/fixtures/seed.ts';
import { spawnStub, type StubProcess } from '../tests/stub/stub-process.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { type Target, allMet, ms, targetTable, writeReport } from './lib/report.ts';
import { tempDir } from './lib/shop.ts';
import { percentile } from './lib/stats.ts';

const SESSIONS = 3_000;
const DATA_FILE_BYTES = 1_000_000;
const CONNECTIONS = 200;
const DURATION_S = 20;
const WARM_UP_S = 3;
const PROBE_EVERY_MS = 200;
/** A newcomer that has no answer after this long is counted as unanswered. */
const PROBE_TIMEOUT_MS = 15_000;
const TARGET_WRITES_PER_S = 500;
const TARGET_PUT_P99_MS = 500;
const TARGET_NEWCOMER_P99_MS = 200;
const CSRF_TOKEN = 'benchcsrftoken0123456789abcdefgh';

interface Line {
  id: number;
  amounts: number[];
}

/** Products a visitor may put in the basket, each with the amounts the stub accepts. */
function orderable(data: StubData): Line[] {
  return data.products
    .filter((product) => product.available && product.price !== null && product.rest > 0)
    .map((product) => {
      const step = product.unit === 'шт' ? 1 : (product.unit_step ?? 0.1);
      const max = Math.min(product.rest, 10);
      const amounts: number[] = [];
      for (let k = 1; k * step <= max + 1e-9; k += 1) amounts.push(Math.round(k * step * 10) / 10);
      return { id: product.id, amounts };
    })
    .filter((line) => line.amounts.length > 0);
}

const pick = <T>(items: T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick');
  return item;
};

const sessionKey = (): string => randomBytes(16).toString('hex');

/** The seed plus SESSIONS sessions, with baskets long enough for a file of DATA_FILE_BYTES. */
function benchData(lines: Line[]): { data: StubData; sessions: string[]; text: string } {
  const now = new Date();
  const stamp = new Date(now.getTime() + 3 * 3600_000).toISOString().slice(0, 19) + '+03:00';
  const sessions = Array.from({ length: SESSIONS }, sessionKey);
  for (let perBasket = 1; ; perBasket += 1) {
    const data = buildSeed(now);
    for (const key of sessions) {
      data.sessions[key] = { created_ts: stamp, last_seen_ts: stamp };
      const basket: Record<string, number> = {};
      for (let n = 0; n < perBasket; n += 1) {
        const line = pick(lines);
        basket[String(line.id)] = pick(line.amounts);
      }
      data.baskets[`session:${key}`] = { lines: basket, updated_ts: stamp };
    }
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (text.length >= DATA_FILE_BYTES || perBasket >= lines.length)
      return { data, sessions, text };
  }
}

// The newcomer, in a worker thread: one GET each PROBE_EVERY_MS on a new connection, no cookies.
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, everyMs, count, timeoutMs } = workerData;
const probe = () => new Promise((resolve) => {
  const started = performance.now();
  const done = (ms) => resolve(ms);
  const request = http.get(url, { agent: false, headers: { Accept: 'application/json' } }, (response) => {
    response.resume();
    response.on('end', () => done(response.statusCode === 200 ? performance.now() - started : null));
  });
  request.setTimeout(timeoutMs, () => { request.destroy(); done(null); });
  request.on('error', () => done(null));
});
const pending = [];
let sent = 0;
const timer = setInterval(() => {
  pending.push(probe());
  sent += 1;
  if (sent >= count) {
    clearInterval(timer);
    Promise.all(pending).then((times) => parentPort.postMessage(times));
  }
}, everyMs);
`;

function newcomerProbes(url: string, count: number): Promise<(number | null)[]> {
  const worker = new Worker(PROBE_SOURCE, {
    eval: true,
    workerData: { url, everyMs: PROBE_EVERY_MS, count, timeoutMs: PROBE_TIMEOUT_MS },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (times: (number | null)[]) => {
      void worker.terminate();
      resolve(times);
    });
    worker.once('error', reject);
  });
}

/** The newcomer's p-th percentile; Infinity when one of them had no answer. */
function slowest(times: (number | null)[], p: number): number {
  const answered = times.filter((ms): ms is number => ms !== null);
  return answered.length < times.length ? Infinity : percentile(answered, p / 100);
}

/** The slowest answer, beside those without one (counted apart). */
function slowestAnswer(times: (number | null)[]): number {
  const answered = times.filter((ms): ms is number => ms !== null);
  return answered.length > 0 ? Math.max(...answered) : NaN;
}

/** durationS of basket PUTs on CONNECTIONS connections, with the newcomer's GETs meanwhile. */
async function storm(
  base: string,
  lines: Line[],
  sessions: string[],
  durationS: number,
): Promise<{ result: autocannon.Result; times: (number | null)[] }> {
  const probeCount = Math.floor(((durationS - 1) * 1000) / PROBE_EVERY_MS);
  const probes = newcomerProbes(`${base}/api/catalog/basket`, probeCount);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: durationS,
    timeout: PROBE_TIMEOUT_MS / 1000,
    requests: [
      {
        method: 'PUT',
        setupRequest: (request) => {
          const line = pick(lines);
          return {
            ...request,
            method: 'PUT',
            path: `/api/catalog/basket/${line.id}`,
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json',
              Cookie: `sessionid=${pick(sessions)}; csrftoken=${CSRF_TOKEN}`,
              'X-CSRFToken': CSRF_TOKEN,
            },
            body: JSON.stringify({ amount: pick(line.amounts) }),
          };
        },
      },
    ],
  });
  return { result, times: await probes };
}

export async function benchStubWrites(atExit: AtExit) {
  const dir = await tempDir(atExit, 'writes');
  let stub: StubProcess | undefined;
  atExit(async () => stub?.stop());
  try {
    const lines = orderable(buildSeed(new Date()));
    const { sessions, text } = benchData(lines);
    const dataFile = path.join(dir, 'db.json');
    await writeFile(dataFile, text);
    const dataFileBytes = (await stat(dataFile)).size;
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    stub = await spawnStub(dataFile, [], nodeArgs);
    const base = stub.url.replace(/\/+$/, '');

    const warmUp = await storm(base, lines, sessions, WARM_UP_S);
    const { result, times } = await storm(base, lines, sessions, DURATION_S);
    const answered = times.filter((ms): ms is number => ms !== null);
    const unanswered = times.length - answered.length;
    const acknowledged = result['2xx'];
    return {
      data_file_bytes: dataFileBytes,
      sessions: SESSIONS,
      connections: CONNECTIONS,
      duration_s: result.duration,
      writes_acknowledged: acknowledged,
      writes_per_s: acknowledged / result.duration,
      writes_failed: result.non2xx,
      connection_errors: result.errors,
      put_p50_ms: result.latency.p50,
      put_p99_ms: result.latency.p99,
      newcomer_probes: times.length,
      newcomer_unanswered: unanswered,
      newcomer_p50_ms: percentile(answered, 0.5),
      newcomer_p99_ms: slowest(times, 99),
      newcomer_max_ms: slowestAnswer(times),
      warm_up: {
        duration_s: warmUp.result.duration,
        newcomer_probes: warmUp.times.length,
        newcomer_unanswered: warmUp.times.filter((ms) => ms === null).length,
        newcomer_max_ms: slowestAnswer(warmUp.times),
      },
    };
  } finally {
    await stub?.stop();
  }
}

/** The figures beside their targets; every bench that runs this one judges it by these. */
export function stubWritesTargets(figures: StubWritesFigures): Target[] {
  return [
    {
      figure: 'Acknowledged basket PUTs per second',
      value: figures.writes_per_s.toFixed(0),
      target: `≥ ${TARGET_WRITES_PER_S}`,
      met: figures.writes_per_s >= TARGET_WRITES_PER_S,
    },
    { figure: 'PUT latency p50', value: ms(figures.put_p50_ms), target: '', met: true },
    {
      figure: 'PUT latency p99',
      value: ms(figures.put_p99_ms),
      target: `≤ ${TARGET_PUT_P99_MS} ms`,
      met: figures.put_p99_ms <= TARGET_PUT_P99_MS,
    },
    { figure: "Newcomer's GET p50", value: ms(figures.newcomer_p50_ms), target: '', met: true },
    {
      figure: "Newcomer's GET p99",
      value: ms(figures.newcomer_p99_ms),
      target: `≤ ${TARGET_NEWCOMER_P99_MS} ms`,
      met: figures.newcomer_p99_ms <= TARGET_NEWCOMER_P99_MS,
    },
  ];
}

/** The figures as Markdown. */
export function stubWritesTable(figures: StubWritesFigures): string {
  return [
    targetTable(stubWritesTargets(figures)),
    '',
    `Data file ${(figures.data_file_bytes / 1e6).toFixed(2)} MB at the start (${figures.sessions} sessions with baskets); ${figures.connections} connections for ${figures.duration_s.toFixed(0)} s: ${figures.writes_acknowledged} writes acknowledged, ${figures.writes_failed} non-2xx answers, ${figures.connection_errors} connection errors or timeouts. Newcomer: ${figures.newcomer_probes} GETs, one each ${PROBE_EVERY_MS} ms, ${figures.newcomer_unanswered} without an answer within ${PROBE_TIMEOUT_MS / 1000} s, slowest ${ms(figures.newcomer_max_ms)}.`,
    '',
    `Before these, a warm-up of ${figures.warm_up.duration_s.toFixed(0)} s of the same load on the just-started stub (judged by no target): the newcomer's slowest GET of ${figures.warm_up.newcomer_probes} ${ms(figures.warm_up.newcomer_max_ms)}, ${figures.warm_up.newcomer_unanswered} without an answer.`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    const figures = await benchStubWrites(atExit);
    const md = stubWritesTable(figures);
    await writeReport('bench-stub-writes', 'Stub under basket writes', figures, md);
    return allMet(stubWritesTargets(figures));
  });
}

export type StubWritesFigures = Awaited<ReturnType<typeof benchStubWrites>>;
