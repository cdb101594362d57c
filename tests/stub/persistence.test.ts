import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createStubApp } from '../../stub-server/app.ts';
import { SAVE_FAILED, Store, type StubData } from '../../stub-server/db.ts';
import { HttpError } from '../../stub-server/http.ts';
import { startServer } from '../../stub-server/server.ts';
import { startTestServer, tempDataFile, Visitor } from './helpers.ts';

const { dir, dataFile } = tempDataFile();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readData = (): StubData => JSON.parse(readFileSync(dataFile, 'utf8')) as StubData;

describe('persistence', () => {
  it('seeds a missing data file from the fixtures', () => {
    createStubApp({ dataFile });
    const data = readData();
    expect(data.products.length).toBeGreaterThanOrEqual(45);
    expect(data.users.map((user) => user.username)).toEqual(['demo']);
    expect(data.users[0]?.password).not.toContain('berries2026');
    expect(data.baskets).toEqual({});
  });

  it('a basket, an order and a token survive a restart on the same data file', async () => {
    const first = await startServer({ port: 0, dataFile });
    const visitor = await new Visitor(first.url).start();
    await visitor.put('/api/catalog/basket/16', { amount: 2 });
    await visitor.put('/api/catalog/basket/4', { amount: 1 });
    const placed = await visitor.post('/api/catalog/order_commit', {
      phone: '9161234567',
      delivery: '1',
      policy_accept: true,
      send_accept: true,
      comment: '',
    });
    expect(placed.status).toBe(201);
    await visitor.put('/api/catalog/basket/16', { amount: 1.5 });
    const account = await new Visitor(first.url).start();
    const token = await account.login();
    await first.close();

    // Nothing answers any more; a new server on the same file has it all.
    await expect(fetch(new URL('/api/catalog/basket', first.url))).rejects.toThrow();
    const second = await startServer({ port: 0, dataFile });
    try {
      const moved = new Visitor(second.url);
      for (const name of ['sessionid', 'csrftoken'])
        moved.jar.set(name, visitor.jar.get(name) ?? '');
      const basket = (await moved.get('/api/catalog/basket')).body as Record<
        string,
        { amount: number }
      >;
      expect(Object.keys(basket)).toEqual(['16']);
      expect(basket['16']?.amount).toBe(1.5);
      const history = (await moved.get('/api/catalog/order_history')).body as { id: number }[];
      expect(history.map((order) => order.id)).toEqual([(placed.body as { id: number }).id]);
      const again = new Visitor(second.url);
      again.token = token;
      expect((await again.get('/api/auth/user/me/')).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('reset: true restores the seed', async () => {
    expect(Object.keys(readData().baskets).length).toBeGreaterThan(0);
    const server = await startServer({ port: 0, dataFile, reset: true });
    await server.close();
    const data = readData();
    expect(data.baskets).toEqual({});
    expect(data.tokens).toEqual([]);
    expect(data.orders.every((order) => order.owner === 'user:1')).toBe(true);
  });

  it('the reset() of createStubApp restores the seed too, on disk once it resolves', async () => {
    const stub = createStubApp({ dataFile });
    const data = readData();
    data.baskets['session:abcdefgh12'] = {
      lines: { '7': 1 },
      updated_ts: '2026-01-01T00:00:00+03:00',
    };
    writeFileSync(dataFile, JSON.stringify(data));
    const reopened = createStubApp({ dataFile });
    expect(Object.keys(readData().baskets)).toEqual(['session:abcdefgh12']);
    await reopened.reset();
    expect(readData().baskets).toEqual({});
    expect(stub.app).toBeTypeOf('function');
  });

  it('a data file from older fixtures gets the new catalogue but keeps baskets', () => {
    createStubApp({ dataFile, reset: true });
    const data = readData();
    data.meta.fixtures = 'old';
    data.products = data.products.filter((product) => product.id !== 7);
    data.baskets['session:abcdefgh12'] = {
      lines: { '7': 1, '999': 2 },
      updated_ts: '2026-01-01T00:00:00+03:00',
    };
    writeFileSync(dataFile, JSON.stringify(data));
    createStubApp({ dataFile });
    const refreshed = readData();
    expect(refreshed.products.some((product) => product.id === 7)).toBe(true);
    expect(refreshed.baskets['session:abcdefgh12']?.lines).toEqual({ '7': 1 });
    expect(refreshed.meta.fixtures).not.toBe('old');
  });
});

const order = {
  phone: '9161234567',
  delivery: '1',
  policy_accept: true,
  send_accept: false,
  comment: '',
};

describe('saving', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers a change only once it is in the file', async () => {
    const server = await startTestServer();
    try {
      const visitor = await new Visitor(server.url).start();
      const stored = () =>
        (JSON.parse(readFileSync(server.dataFile, 'utf8')) as StubData).baskets[
          `session:${visitor.jar.get('sessionid')}`
        ]?.lines;
      expect((await visitor.put('/api/catalog/basket/7', { amount: 1.5 })).status).toBe(200);
      expect(stored()).toEqual({ '7': 1.5 });
      expect((await visitor.delete('/api/catalog/basket/7')).status).toBe(204);
      expect(stored()).toBeUndefined();
      await visitor.put('/api/catalog/basket/4', { amount: 2 });
      const placed = await visitor.post('/api/catalog/order_commit', order);
      expect(placed.status).toBe(201);
      const orders = (JSON.parse(readFileSync(server.dataFile, 'utf8')) as StubData).orders;
      expect(orders.map((each) => each.id)).toContain((placed.body as { id: number }).id);
      const token = await new Visitor(server.url).start().then((account) => account.login());
      const tokens = (JSON.parse(readFileSync(server.dataFile, 'utf8')) as StubData).tokens;
      expect(tokens.map((each) => each.key)).toContain(token);
    } finally {
      await server.dispose();
    }
  });

  it('changes made together are one write; those made during a write are the next one', async () => {
    const { dir, dataFile } = tempDataFile();
    try {
      const store = Store.open(dataFile);
      expect(store.writes).toBe(1);
      const together = Array.from({ length: 20 }, (_, n) => {
        store.data.baskets[`session:together${n}`] = { lines: { '7': 1 }, updated_ts: '' };
        return store.save();
      });
      // The first write has begun (it starts on the next turn of the event loop): these wait.
      await new Promise((resolve) => setImmediate(resolve));
      const meanwhile = Array.from({ length: 10 }, (_, n) => {
        store.data.baskets[`session:meanwhile${n}`] = { lines: { '4': 2 }, updated_ts: '' };
        return store.save();
      });
      await Promise.all([...together, ...meanwhile]);
      expect(store.writes).toBe(3);
      const data = JSON.parse(readFileSync(dataFile, 'utf8')) as StubData;
      expect(Object.keys(data.baskets)).toHaveLength(30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a write that fails undoes every change not on disk, and each of them answers 503', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dir, dataFile } = tempDataFile();
    try {
      const store = Store.open(dataFile);
      store.data.baskets['session:kept12345'] = { lines: { '7': 1 }, updated_ts: '' };
      await store.save();
      const before = JSON.stringify(store.data);
      rmSync(dir, { recursive: true, force: true });
      store.data.baskets['session:kept12345'].lines['7'] = 2;
      store.data.users[0]!.first_name = 'Иван';
      const failing = store.save();
      await new Promise((resolve) => setImmediate(resolve));
      // Made while the failing write is on its way: undone with it.
      store.data.orders = [];
      const alongside = store.save();
      for (const saved of [failing, alongside]) {
        const rejection = await saved.then(
          () => null,
          (reason: unknown) => reason,
        );
        expect(rejection).toBeInstanceOf(HttpError);
        expect(rejection).toMatchObject({ status: 503, body: { detail: SAVE_FAILED } });
      }
      expect(JSON.stringify(store.data)).toBe(before);
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]?.[0])).toMatch(/^\[stub\] Не удалось записать .*db\.json/);

      // Once the folder is back, changes are saved again.
      mkdirSync(dir);
      store.data.baskets['session:kept12345'].lines['7'] = 3;
      await store.save();
      const data = JSON.parse(readFileSync(dataFile, 'utf8')) as StubData;
      expect(data.baskets['session:kept12345']?.lines).toEqual({ '7': 3 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a failed save changes nothing a shopper can see: basket, order, login', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await startTestServer({ controls: false });
    const folder = server.dataFile.replace(/\/db\.json$/, '');
    try {
      const visitor = await new Visitor(server.url).start();
      expect((await visitor.put('/api/catalog/basket/7', { amount: 1 })).status).toBe(200);
      expect((await visitor.put('/api/catalog/basket/4', { amount: 1 })).status).toBe(200);
      const basket = (await visitor.get('/api/catalog/basket')).body;
      const session = visitor.jar.get('sessionid');
      rmSync(folder, { recursive: true, force: true });

      const put = await visitor.put('/api/catalog/basket/7', { amount: 2 });
      expect(put.status).toBe(503);
      expect(put.body).toEqual({ detail: SAVE_FAILED });
      expect((await visitor.get('/api/catalog/basket')).body).toEqual(basket);

      const placed = await visitor.post('/api/catalog/order_commit', order);
      expect(placed.status).toBe(503);
      expect(placed.body).toEqual({ detail: SAVE_FAILED });
      expect((await visitor.get('/api/catalog/order_history')).body).toEqual([]);
      expect((await visitor.get('/api/catalog/basket')).body).toEqual(basket);

      const login = await visitor.post('/api/auth/token/', {
        username: 'demo',
        password: 'berries2026',
      });
      expect(login.status).toBe(503);
      expect(login.body).toEqual({ detail: SAVE_FAILED });
      expect(login.headers.getSetCookie().some((cookie) => cookie.startsWith('sessionid='))).toBe(
        false,
      );
      expect(visitor.jar.get('sessionid')).toBe(session);
      expect((await visitor.get('/api/catalog/basket')).body).toEqual(basket);

      // The disk is back. The failed login moved nothing into the account; the same order goes
      // through, once.
      mkdirSync(folder);
      const account = await new Visitor(server.url).start();
      await account.login();
      expect((await account.get('/api/catalog/basket')).body).toEqual({});
      const retried = await visitor.post('/api/catalog/order_commit', order);
      expect(retried.status).toBe(201);
      const history = (await visitor.get('/api/catalog/order_history')).body as unknown[];
      expect(history).toHaveLength(1);
    } finally {
      await server.dispose();
    }
  });
});
