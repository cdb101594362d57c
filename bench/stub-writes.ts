// The stub under a storm of basket writes (issue 13; the docs say what it measures): its own
// CLI in a process of its own (tests/stub/stub-process.ts) on a data file as json-server writes
// it, every PUT a random session, product and valid amount. The 95 probes make the newcomer's p99
// its slowest. In the 3 s warm-up V8 still compiles the handlers and a newcomer waits up to some
// 300 ms: what a shopper meets right after a restart under load, shown but judged by no target.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import type { StubData } from '../stub-server/db.ts';
import { buildSeed } from '../stub-server/fixtures/seed.ts';
import { maxAmount, stepOf } from '../stub-server/validation.ts';
import { spawnStub } from '../tests/stub/stub-process.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { type Target, allMet, ms, targetTable, row, writeReport } from './lib/report.ts';
import { tempDir } from './lib/shop.ts';
import { percentile } from './lib/stats.ts';
import { type Answer, Visitor } from './lib/visitor.ts';

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

/** Products a visitor may put in the basket, each with the amounts the stub accepts. */
function orderable(data: StubData) {
  return data.products
    .filter((product) => product.available && product.price !== null && product.rest > 0)
    .map((product) => {
      const step = stepOf(product);
      const steps = Math.floor(maxAmount(product) / step + 1e-9);
      return { id: product.id, amounts: Array.from({ length: steps }, (_, k) => (k + 1) * step) };
    })
    .filter((line) => line.amounts.length > 0);
}

/** One of `items` (never empty here: orderable() keeps the lines with amounts). */
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;

type Line = ReturnType<typeof orderable>[number];

/** The seed plus SESSIONS sessions, with baskets long enough for a file of DATA_FILE_BYTES. */
function benchData(lines: Line[]) {
  const now = new Date();
  const stamp = new Date(now.getTime() + 3 * 3600_000).toISOString().slice(0, 19) + '+03:00';
  const sessions = Array.from({ length: SESSIONS }, () => randomBytes(16).toString('hex'));
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
    if (text.length >= DATA_FILE_BYTES || perBasket >= lines.length) return { sessions, text };
  }
}

/** The newcomer: a GET of the basket each PROBE_EVERY_MS, no cookies, a new connection each. */
async function newcomer(base: URL, count: number): Promise<number[]> {
  const probes: Promise<Answer>[] = [];
  for (let sent = 0; sent < count; sent += 1) {
    probes.push(new Visitor(base, PROBE_TIMEOUT_MS).view('/api/catalog/basket'));
    await sleep(PROBE_EVERY_MS);
  }
  return (await Promise.all(probes)).map((probe) => (probe.status === 200 ? probe.ms : Infinity));
}

const unanswered = (times: number[]) => times.filter((time) => time === Infinity).length;

/** durationS of basket PUTs on CONNECTIONS connections, with the newcomer's GETs meanwhile. */
async function storm(base: string, lines: Line[], sessions: string[], durationS: number) {
  const probes = newcomer(new URL(base), Math.floor(((durationS - 1) * 1000) / PROBE_EVERY_MS));
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
  const dataFile = path.join(await tempDir(atExit, 'writes'), 'db.json');
  const lines = orderable(buildSeed(new Date()));
  const { sessions, text } = benchData(lines);
  await writeFile(dataFile, text);
  const stub = await spawnStub(dataFile);
  atExit(() => stub.stop());
  const base = stub.url.replace(/\/+$/, '');
  const warmUp = await storm(base, lines, sessions, WARM_UP_S);
  const { result, times } = await storm(base, lines, sessions, DURATION_S);
  // Stopped now: in `npm run bench` the later parts do not run beside it.
  await stub.stop();
  return {
    data_file_bytes: Buffer.byteLength(text),
    duration_s: result.duration,
    writes_acknowledged: result['2xx'],
    writes_per_s: result['2xx'] / result.duration,
    writes_failed: result.non2xx,
    connection_errors: result.errors,
    put_p50_ms: result.latency.p50,
    put_p99_ms: result.latency.p99,
    newcomer_probes: times.length,
    newcomer_unanswered: unanswered(times),
    newcomer_p50_ms: percentile(times, 0.5),
    newcomer_p99_ms: percentile(times, 0.99),
    warm_up_newcomer_max_ms: Math.max(...warmUp.times),
    warm_up_newcomer_unanswered: unanswered(warmUp.times),
  };
}

/** The figures beside their targets; every bench that runs this one judges it by these. */
export function stubWritesTargets(figures: StubWritesFigures): Target[] {
  return [
    {
      figure: `Acknowledged basket PUTs per second (${CONNECTIONS} connections, ${SESSIONS} sessions, a ${(figures.data_file_bytes / 1e6).toFixed(2)} MB file)`,
      value: `${figures.writes_per_s.toFixed(0)} (${figures.writes_acknowledged} in ${figures.duration_s.toFixed(0)} s; ${figures.writes_failed} non-2xx, ${figures.connection_errors} errors)`,
      target: `≥ ${TARGET_WRITES_PER_S}`,
      met: figures.writes_per_s >= TARGET_WRITES_PER_S,
    },
    {
      figure: 'PUT latency p50, p99',
      value: `${ms(figures.put_p50_ms)}, ${ms(figures.put_p99_ms)}`,
      target: `p99 ≤ ${TARGET_PUT_P99_MS} ms`,
      met: figures.put_p99_ms <= TARGET_PUT_P99_MS,
    },
    {
      figure: `Newcomer's GET p50, p99 (one each ${PROBE_EVERY_MS} ms; unanswered within ${PROBE_TIMEOUT_MS / 1000} s)`,
      value: `${ms(figures.newcomer_p50_ms)}, ${ms(figures.newcomer_p99_ms)} (${figures.newcomer_unanswered} of ${figures.newcomer_probes} unanswered)`,
      target: `p99 ≤ ${TARGET_NEWCOMER_P99_MS} ms`,
      met: figures.newcomer_p99_ms <= TARGET_NEWCOMER_P99_MS,
    },
    row(
      `Newcomer's slowest GET in the ${WARM_UP_S} s warm-up on the just-started stub`,
      `${ms(figures.warm_up_newcomer_max_ms)} (${figures.warm_up_newcomer_unanswered} unanswered)`,
    ),
  ];
}

export const stubWritesTable = (figures: StubWritesFigures) =>
  targetTable(stubWritesTargets(figures));

if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    const figures = await benchStubWrites(atExit);
    const md = stubWritesTable(figures);
    await writeReport('bench-stub-writes', 'Stub under basket writes', figures, md);
    return allMet(stubWritesTargets(figures));
  });
}

export type StubWritesFigures = Awaited<ReturnType<typeof benchStubWrites>>;
