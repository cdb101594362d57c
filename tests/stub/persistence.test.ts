import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createStubApp } from '../../stub-server/app.ts';
import type { StubData } from '../../stub-server/db.ts';
import { startServer } from '../../stub-server/server.ts';
import { tempDataFile, Visitor } from './helpers.ts';

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

  it('the reset() of createStubApp restores the seed too', () => {
    const stub = createStubApp({ dataFile });
    const data = readData();
    data.baskets['session:abcdefgh12'] = {
      lines: { '7': 1 },
      updated_ts: '2026-01-01T00:00:00+03:00',
    };
    writeFileSync(dataFile, JSON.stringify(data));
    const reopened = createStubApp({ dataFile });
    expect(Object.keys(readData().baskets)).toEqual(['session:abcdefgh12']);
    reopened.reset();
    expect(readData().baskets).toEqual({});
    expect(stub.app).toBeTypeOf('function');
  });

  it('a broken data file is seeded again instead of crashing', () => {
    writeFileSync(dataFile, '{"not json');
    createStubApp({ dataFile });
    expect(readData().products.length).toBeGreaterThanOrEqual(45);
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
