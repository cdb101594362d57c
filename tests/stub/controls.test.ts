import { beforeEach, describe, expect, it } from 'vitest';
import { control, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile({ reset: true });
beforeEach(async () => {
  await control(server.url, 'POST', '/settings', { csrf: true, fixed_session: null });
});

const state = (body: unknown) => control(server.url, 'POST', '/state', body);

describe('/__control/state, structured', () => {
  it('sets and clears the basket of a session', async () => {
    const visitor = await new Visitor(server.url).start();
    const owner = `session:${visitor.jar.get('sessionid')}`;
    const set = await state({ basket: { owner, lines: { 7: 1.5, 4: 2 } } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ owner, applied: ['basket'] });
    const basket = (await visitor.get('/api/catalog/basket')).body as Record<
      string,
      { amount: number }
    >;
    expect(basket['7']?.amount).toBe(1.5);
    expect(basket['4']?.amount).toBe(2);
    await state({ basket: { owner, lines: {} } });
    expect((await visitor.get('/api/catalog/basket')).body).toEqual({});
  });

  it('sets the number of orders of the demo user', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.login();
    for (const count of [0, 2, 12]) {
      expect((await state({ orders: { owner: 'user:demo', count } })).status).toBe(200);
      const history = (await visitor.get('/api/catalog/order_history')).body as {
        created_ts: string;
      }[];
      expect(history, String(count)).toHaveLength(count);
      const times = history.map((order) => Date.parse(order.created_ts));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    }
  });

  it('creates a user with a password and a chosen token', async () => {
    const created = await state({
      user: { username: 'pact', password: 'secret-1', first_name: 'Пётр', token: 'a'.repeat(40) },
    });
    expect(created.body).toMatchObject({ user: { username: 'pact' }, token: 'a'.repeat(40) });
    const byToken = new Visitor(server.url);
    byToken.token = 'a'.repeat(40);
    expect((await byToken.get('/api/auth/user/me/')).body).toMatchObject({
      username: 'pact',
      first_name: 'Пётр',
    });
    const byPassword = await new Visitor(server.url).start();
    expect(await byPassword.login('pact', 'secret-1')).toBe('a'.repeat(40));
  });

  it('revokes a token, and marks a product sold out', async () => {
    const visitor = await new Visitor(server.url).start();
    const token = await visitor.login();
    expect((await state({ revoke: { token } })).status).toBe(200);
    expect((await visitor.get('/api/catalog/basket')).status).toBe(401);
    await state({ product: { id: 7, rest: 0 } });
    visitor.token = null;
    expect((await visitor.get('/api/catalog/product_retrieve/7')).body).toMatchObject({
      rest: 0,
      available: false,
    });
  });

  it('rejects nonsense with 400', async () => {
    expect((await state({ basket: { owner: 'nobody', lines: {} } })).status).toBe(400);
    expect((await state({ basket: { owner: 'user:ghost', lines: {} } })).status).toBe(400);
    expect((await state({ basket: { owner: 'user:demo', lines: { 9999: 1 } } })).status).toBe(400);
    expect((await state({ orders: { owner: 'user:demo', count: -1 } })).status).toBe(400);
    expect((await state({ state: 'the moon is made of cheese' })).status).toBe(400);
    expect((await state([1, 2])).status).toBe(400);
  });
});

describe('/__control/state, named provider states', () => {
  it('the basket holds product {id} with amount {amount}: text or params, fixed session', async () => {
    await control(server.url, 'POST', '/settings', { fixed_session: 'pactsession1' });
    const answer = await state({
      state: 'the basket holds product 7 with amount 1.5',
      action: 'setup',
    });
    expect(answer.body).toMatchObject({ owner: 'session:pactsession1' });
    // A verifier sends no cookies: it gets the fixed session.
    const verifier = new Visitor(server.url);
    const basket = (await verifier.get('/api/catalog/basket')).body as Record<
      string,
      { amount: number }
    >;
    expect(basket['7']?.amount).toBe(1.5);
    expect(verifier.jar.get('sessionid')).toBe('pactsession1');

    await state({
      state: 'the basket holds product {id} with amount {amount}',
      params: { id: 4, amount: 3 },
    });
    const next = (await new Visitor(server.url).get('/api/catalog/basket')).body as Record<
      string,
      unknown
    >;
    expect(Object.keys(next)).toEqual(['4']);
    await state({ state: 'the basket is empty' });
    expect((await new Visitor(server.url).get('/api/catalog/basket')).body).toEqual({});
  });

  it('the demo user has {count} orders; token {token} is revoked; teardown is a no-op', async () => {
    await state({ state: 'the demo user has 3 orders' });
    await state({ state: 'user demo has token {token}', params: { token: 'b'.repeat(40) } });
    const visitor = new Visitor(server.url);
    visitor.token = 'b'.repeat(40);
    expect((await visitor.get('/api/catalog/order_history')).body).toHaveLength(3);
    await state({ state: `token ${'b'.repeat(40)} is revoked` });
    expect((await visitor.get('/api/catalog/order_history')).status).toBe(401);
    expect((await state({ state: 'anything at all', action: 'teardown' })).status).toBe(200);
  });

  it('lists the named states and the mutable data', async () => {
    const { status, body } = await control(server.url, 'GET', '/state');
    expect(status).toBe(200);
    expect((body as { named_states: string[] }).named_states).toContain(
      'the basket holds product {id} with amount {amount}',
    );
    expect(JSON.stringify(body)).not.toContain('pbkdf2');
  });

  it('product {id} exists / does not exist check the catalogue', async () => {
    expect((await state({ state: 'product 7 exists' })).status).toBe(200);
    expect((await state({ state: 'product 9999 exists' })).status).toBe(400);
    expect((await state({ state: 'product 9999 does not exist' })).status).toBe(200);
    expect((await state({ state: 'section 14 exists' })).status).toBe(200);
    expect((await state({ state: 'selection 3 exists' })).status).toBe(200);
  });
});
