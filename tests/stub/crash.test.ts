// kill -9 during a storm of basket writes, then a restart on the same data file: the file is
// whole and every write the stub acknowledged is in it, trial after trial (STUB_CRASH_TRIALS,
// default 5). Nothing here depends on the machine's speed: the kill comes after a number of
// acknowledged writes, and each visitor's writes are sequential, so its basket in the file must be
// the one after its last acknowledged write, or after the one still unanswered at the kill.
import { readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { StubData } from '../../stub-server/db.ts';
import { buildSeed, SCHEMA_VERSION } from '../../stub-server/fixtures/seed.ts';
import { tempDataFile, Visitor } from './helpers.ts';
import { spawnStub } from './stub-process.ts';

const TRIALS = Math.max(1, Number(process.env.STUB_CRASH_TRIALS ?? 5) || 5);
const VISITORS = 20;
const OTHER_SESSIONS = 1_000;

const { dir, dataFile } = tempDataFile();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  id: number;
  amounts: number[];
}

/** A few products with the amounts the stub accepts for them. */
function lines(data: StubData): Line[] {
  return data.products
    .filter((product) => product.available && product.price !== null && product.rest >= 3)
    .slice(0, 6)
    .map((product) => {
      const step = product.unit === 'шт' ? 1 : (product.unit_step ?? 0.1);
      const amounts = [1, 2, 3].map((k) => Math.round(k * step * 10) / 10);
      return { id: product.id, amounts };
    });
}

/** Write k of visitor v: a line set to an amount, every fifth one removed. */
function write(products: Line[], v: number, k: number): { id: number; amount: number } {
  const line = products[(k + v) % products.length]!;
  const amount = k % 5 === 4 ? 0 : line.amounts[(k + 2 * v) % line.amounts.length]!;
  return { id: line.id, amount };
}

/** The basket after the first `count` writes of visitor v. */
function basketAfter(products: Line[], v: number, count: number): Record<string, number> {
  const basket: Record<string, number> = {};
  for (let k = 0; k < count; k += 1) {
    const { id, amount } = write(products, v, k);
    if (amount > 0) basket[String(id)] = amount;
    else delete basket[String(id)];
  }
  return basket;
}

interface Tracked {
  visitor: Visitor;
  v: number;
  acknowledged: number;
  /** A write was sent and not answered when the server died. */
  inFlight: boolean;
}

/** Visitors writing one after another until the server dies; resolves when all have stopped. */
async function storm(
  url: string,
  products: Line[],
  killAfter: number,
  kill: () => void,
): Promise<Tracked[]> {
  const tracked: Tracked[] = [];
  for (let v = 0; v < VISITORS; v += 1) {
    tracked.push({ visitor: await new Visitor(url).start(), v, acknowledged: 0, inFlight: false });
  }
  let total = 0;
  await Promise.all(
    tracked.map(async (entry) => {
      for (;;) {
        const { id, amount } = write(products, entry.v, entry.acknowledged);
        entry.inFlight = true;
        try {
          const answer = await entry.visitor.put(`/api/catalog/basket/${id}`, { amount });
          expect(answer.status).toBe(200);
        } catch (error) {
          if (error instanceof TypeError) return; // the connection died with the server
          throw error;
        }
        entry.inFlight = false;
        entry.acknowledged += 1;
        total += 1;
        if (total === killAfter) kill();
      }
    }),
  );
  return tracked;
}

/** Calls `kill` as soon as the next write touches the folder (creates its temporary file). */
function killOnNextWrite(kill: () => void): void {
  const watcher = watch(dir, () => {
    watcher.close();
    kill();
  });
}

function expectAcknowledgedWrites(data: StubData, products: Line[], tracked: Tracked[]): void {
  for (const { visitor, v, acknowledged, inFlight } of tracked) {
    const stored = data.baskets[`session:${visitor.jar.get('sessionid')}`]?.lines ?? {};
    const allowed = [basketAfter(products, v, acknowledged)];
    if (inFlight) allowed.push(basketAfter(products, v, acknowledged + 1));
    expect(allowed, `visitor ${v} after ${acknowledged} acknowledged writes`).toContainEqual(
      stored,
    );
  }
}

/** Each visitor's basket, asked of the restarted stub with the visitor's own cookies. */
async function expectSameThroughApi(url: string, data: StubData, tracked: Tracked[]) {
  for (const { visitor, v } of tracked) {
    const again = new Visitor(url);
    for (const name of ['sessionid', 'csrftoken']) again.jar.set(name, visitor.jar.get(name)!);
    const basket = (await again.get('/api/catalog/basket')).body as Record<
      string,
      { amount: number }
    >;
    const amounts = Object.fromEntries(
      Object.entries(basket).map(([id, entry]) => [id, entry.amount]),
    );
    const stored = data.baskets[`session:${visitor.jar.get('sessionid')}`]?.lines ?? {};
    expect(amounts, `visitor ${v} through the API`).toEqual(stored);
  }
}

describe('kill -9 during a write storm', () => {
  it(`leaves a whole data file with every acknowledged write, ${TRIALS} times`, async () => {
    // The seed and OTHER_SESSIONS more: a file of about 300 KB, long enough to write that a kill
    // can land inside a write.
    const seed = buildSeed(new Date());
    const stamp = new Date().toISOString().slice(0, 19) + '+00:00';
    for (let n = 0; n < OTHER_SESSIONS; n += 1) {
      const key = `other${String(n).padStart(27, '0')}`;
      seed.sessions[key] = { created_ts: stamp, last_seen_ts: stamp };
      seed.baskets[`session:${key}`] = { lines: { '7': 1.5, '4': 2 }, updated_ts: stamp };
    }
    writeFileSync(dataFile, JSON.stringify(seed, null, 2));
    const products = lines(seed);
    expect(products.length).toBeGreaterThanOrEqual(4);
    let previous: { tracked: Tracked[]; data: StubData } | null = null;
    let midWrite = 0;
    for (let trial = 1; trial <= TRIALS + 1; trial += 1) {
      const server = await spawnStub(dataFile);
      try {
        // The restart reads the file the kill left (no copy set aside, no re-seed), removes the
        // temporary file of a write cut short, and answers each visitor's basket as stored.
        expect(server.output()).not.toMatch(/corrupt|повреж|исходн/i);
        expect(readdirSync(dir)).toEqual(['db.json']);
        if (previous) await expectSameThroughApi(server.url, previous.data, previous.tracked);
        if (trial > TRIALS) break;

        // Every other trial, the kill waits for the next write to create its temporary file,
        // so that it lands while that write is on its way (the file system says when, not a
        // clock); the others kill right after the count.
        const killAfter = 30 + Math.floor(Math.random() * 120);
        const kill = () => server.child.kill('SIGKILL');
        const tracked = await storm(
          server.url,
          products,
          killAfter,
          trial % 2 === 0 ? () => killOnNextWrite(kill) : kill,
        );
        await server.stop('SIGKILL');
        if (readdirSync(dir).length > 1) midWrite += 1;

        const text = readFileSync(dataFile, 'utf8');
        expect(text.length, `trial ${trial}: the file is empty`).toBeGreaterThan(0);
        const data = JSON.parse(text) as StubData;
        expect(data.meta.schema).toBe(SCHEMA_VERSION);
        expectAcknowledgedWrites(data, products, tracked);
        previous = { tracked, data };
      } finally {
        await server.stop('SIGKILL');
      }
    }
    console.info(`crash test: ${midWrite} of ${TRIALS} kills came while a write was on its way`);
  }, 300_000);
});
