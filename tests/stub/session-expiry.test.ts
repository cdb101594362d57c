// Sessions expire like Django's: one unseen for 14 days goes, with its basket and its anonymous
// orders; users' baskets and orders stay.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopIso } from '../../stub-server/clock.ts';
import type { StoredOrder, StubData } from '../../stub-server/db.ts';
import { buildSeed } from '../../stub-server/fixtures/seed.ts';
import { expireSessions, SESSION_AGE_MS } from '../../stub-server/session.ts';
import { startTestServer, type TestServer, tempDataFile, Visitor } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
// A whole second, as the stored timestamps have no milliseconds.
const now = Math.floor(Date.now() / 1000) * 1000;
const ago = (ms: number) => shopIso(new Date(now - ms));

const OLD = 'oldsession0001';
const RECENT = 'recentsession01';
const STALE = 'stalesession001';
const ORDER_ID = 900;

function anonymousOrder(data: StubData, owner: string): StoredOrder {
  const template = data.orders[0]!;
  return { ...template, id: ORDER_ID, owner };
}

/** A data file with a session of each age, a two-week-old user basket and an anonymous order. */
function dataWithSessions(): StubData {
  const data = buildSeed(new Date(now));
  data.sessions[OLD] = { created_ts: ago(40 * DAY), last_seen_ts: ago(15 * DAY) };
  data.baskets[`session:${OLD}`] = { lines: { '7': 1 }, updated_ts: ago(15 * DAY) };
  data.orders.push(anonymousOrder(data, `session:${OLD}`));
  data.sessions[RECENT] = { created_ts: ago(40 * DAY), last_seen_ts: ago(13 * DAY) };
  data.baskets[`session:${RECENT}`] = { lines: { '4': 2 }, updated_ts: ago(13 * DAY) };
  data.sessions[STALE] = { created_ts: ago(3 * DAY), last_seen_ts: ago(2 * DAY) };
  data.baskets[`session:${STALE}`] = { lines: { '11': 1 }, updated_ts: ago(2 * DAY) };
  data.baskets['user:1'] = { lines: { '16': 3 }, updated_ts: ago(30 * DAY) };
  return data;
}

function visitorWith(url: string, session: string): Visitor {
  const visitor = new Visitor(url);
  visitor.jar.set('sessionid', session);
  visitor.jar.set('csrftoken', 'expirytestcsrf0123456789abcdefgh');
  return visitor;
}

const sessionCookie = (headers: Headers) =>
  headers.getSetCookie().find((cookie) => cookie.startsWith('sessionid='));

describe('expireSessions', () => {
  it('removes a session unseen for more than 14 days, to the millisecond', () => {
    const data = buildSeed(new Date(now));
    data.sessions.edge0001 = { created_ts: ago(20 * DAY), last_seen_ts: ago(SESSION_AGE_MS) };
    data.sessions.gone0001 = {
      created_ts: ago(20 * DAY),
      last_seen_ts: new Date(now - SESSION_AGE_MS - 1).toISOString(),
    };
    // Seen through its basket, changed later than its record.
    data.sessions.kept0001 = { created_ts: ago(20 * DAY), last_seen_ts: ago(20 * DAY) };
    data.baskets['session:kept0001'] = { lines: { '7': 1 }, updated_ts: ago(DAY) };
    // A basket with no record ages too.
    data.baskets['session:bare0001'] = { lines: { '7': 1 }, updated_ts: ago(15 * DAY) };
    const removed = expireSessions(data, now);
    expect(removed).toBe(2);
    expect(Object.keys(data.sessions).sort()).toEqual(['edge0001', 'kept0001']);
    expect(Object.keys(data.baskets)).toEqual(['session:kept0001']);
  });
});

describe('session expiry in the running stub', () => {
  let server: TestServer;
  const { dataFile } = tempDataFile();
  const readData = () => JSON.parse(readFileSync(dataFile, 'utf8')) as StubData;

  beforeAll(async () => {
    writeFileSync(dataFile, JSON.stringify(dataWithSessions(), null, 2));
    server = await startTestServer({ dataFile, controls: false });
  });
  afterAll(() => server.dispose());

  it('at start-up, drops the old session with its basket and order; the rest stays', async () => {
    const old = visitorWith(server.url, OLD);
    const basket = await old.get('/api/catalog/basket');
    expect(basket.body).toEqual({});
    // The key is no longer honoured: a new one replaces it.
    expect(old.jar.get('sessionid')).not.toBe(OLD);
    expect((await old.get('/api/catalog/order_history')).body).toEqual([]);

    const recent = visitorWith(server.url, RECENT);
    const kept = (await recent.get('/api/catalog/basket')).body as Record<string, unknown>;
    expect(Object.keys(kept)).toEqual(['4']);
    expect(recent.jar.get('sessionid')).toBe(RECENT);

    // Any acknowledged write carries the sweep to the file too.
    expect((await recent.put('/api/catalog/basket/4', { amount: 3 })).status).toBe(200);
    const data = readData();
    expect(Object.keys(data.sessions)).not.toContain(OLD);
    expect(Object.keys(data.baskets)).not.toContain(`session:${OLD}`);
    expect(data.orders.map((order) => order.id)).not.toContain(ORDER_ID);
    expect(data.baskets['user:1']?.lines).toEqual({ '16': 3 });
    expect(data.orders.filter((order) => order.owner === 'user:1')).toHaveLength(7);
  });

  it('a visit that only reads counts as seen, once a day: the cookie is sent again', async () => {
    const stale = visitorWith(server.url, STALE);
    const first = await stale.get('/api/catalog/basket');
    expect(Object.keys(first.body as object)).toEqual(['11']);
    expect(sessionCookie(first.headers)).toMatch(
      new RegExp(`^sessionid=${STALE};.*Max-Age=1209600`),
    );
    // Recorded now: the next read is only a read.
    const second = await stale.get('/api/catalog/basket');
    expect(sessionCookie(second.headers)).toBeUndefined();
    // Writes are sequential, so once another visitor's change is on disk, this visit is too.
    const other = await new Visitor(server.url).start();
    expect((await other.put('/api/catalog/basket/7', { amount: 1 })).status).toBe(200);
    const seen = Date.parse(readData().sessions[STALE]!.last_seen_ts);
    expect(Date.now() - seen).toBeLessThan(DAY);
  });

  it('a change to the basket sends the session cookie again, for two more weeks', async () => {
    const visitor = await new Visitor(server.url).start();
    const put = await visitor.put('/api/catalog/basket/7', { amount: 1 });
    expect(sessionCookie(put.headers)).toMatch(/Max-Age=1209600/);
    const again = await visitor.put('/api/catalog/basket/7', { amount: 2 });
    expect(sessionCookie(again.headers)).toContain(visitor.jar.get('sessionid'));
  });
});
