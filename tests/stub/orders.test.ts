import { describe, expect, it } from 'vitest';
import { control, expectOrder, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile({ reset: true });

const validOrder = {
  delivery: '2',
  policy_accept: true,
  send_accept: false,
  comment: 'Позвоните, пожалуйста',
  phone: '+7(916)-123-45-67',
};

type Order = {
  id: number;
  status: number;
  created_ts: string;
  order_sum: number;
  items: { amount: number; price: number; product: { id: number; name: string; unit: string } }[];
};

describe('order_commit', () => {
  it('turns the available lines into an order, answers 201 and empties those lines', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/7', { amount: 1.5 }); // 1335
    await visitor.put('/api/catalog/basket/4', { amount: 2 }); // 840
    await visitor.put('/api/catalog/basket/50', { amount: 1 }); // no price: stays
    const before = Date.now();
    const { status, body } = await visitor.post('/api/catalog/order_commit', validOrder);
    expect(status).toBe(201);
    expectOrder(body);
    const order = body as Order;
    expect(order.status).toBe(0);
    expect(order.order_sum).toBe(2175);
    expect(order.created_ts).toMatch(/\+03:00$/);
    expect(Math.abs(Date.parse(order.created_ts) - before)).toBeLessThan(5000);
    expect(order.items.map((item) => [item.product.id, item.amount, item.price])).toEqual([
      [4, 2, 420],
      [7, 1.5, 890],
    ]);
    expect(order.items[1]?.product).toEqual({ id: 7, name: 'Малина', unit: 'кг' });
    expect(Object.keys((await visitor.get('/api/catalog/basket')).body as object)).toEqual(['50']);
    expect((await visitor.get('/api/catalog/total_price')).body).toBe(0);
    const history = (await visitor.get('/api/catalog/order_history')).body as Order[];
    expect(history.map((o) => o.id)).toEqual([order.id]);
  });

  it('accepts a phone in any of the mask forms and delivery 1', async () => {
    for (const phone of ['9161234567', '+7 916 123 45 67', '+7(916)1234567']) {
      const visitor = await new Visitor(server.url).start();
      await visitor.put('/api/catalog/basket/11', { amount: 1 });
      const { status } = await visitor.post('/api/catalog/order_commit', {
        ...validOrder,
        delivery: '1',
        phone,
      });
      expect(status, phone).toBe(201);
    }
  });

  it('answers 400 non_field_errors for an empty basket', async () => {
    const visitor = await new Visitor(server.url).start();
    const empty = await visitor.post('/api/catalog/order_commit', validOrder);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ non_field_errors: ['В корзине нет доступных товаров'] });
    // Only a sold-out line is not enough either.
    await control(server.url, 'POST', '/state', {
      basket: { owner: `session:${visitor.jar.get('sessionid')}`, lines: { 5: 1 } },
    });
    const soldOut = await visitor.post('/api/catalog/order_commit', validOrder);
    expect(soldOut.body).toEqual({ non_field_errors: ['В корзине нет доступных товаров'] });
  });

  it.each([
    [{ phone: '' }, { phone: ['Это обязательное поле'] }],
    [{ phone: undefined }, { phone: ['Это обязательное поле'] }],
    // What the form calls empty, the stub does too: the mask's +7( with no digits.
    [{ phone: '+7(' }, { phone: ['Это обязательное поле'] }],
    [{ phone: '+7()--' }, { phone: ['Это обязательное поле'] }],
    [{ phone: 912 }, { phone: ['Некорректный номер'] }],
    [{ phone: '+7(816)-123-45-67' }, { phone: ['Некорректный номер'] }],
    [{ phone: '89161234567' }, { phone: ['Некорректный номер'] }],
    [{ phone: '+7(916)-123-45-6' }, { phone: ['Некорректный номер'] }],
    [{ comment: 'я'.repeat(151) }, { comment: ['Максимальная длина 150'] }],
    [{ delivery: '3' }, { delivery: ['Выберите один из способов получения'] }],
    [{ delivery: undefined }, { delivery: ['Выберите один из способов получения'] }],
    // The string '1' or '2' only: String() used to let ['1'] and 1 through.
    [{ delivery: ['1'] }, { delivery: ['Выберите один из способов получения'] }],
    [{ delivery: 1 }, { delivery: ['Выберите один из способов получения'] }],
    [{ delivery: ' 2' }, { delivery: ['Выберите один из способов получения'] }],
    [{ delivery: null }, { delivery: ['Выберите один из способов получения'] }],
    [
      { policy_accept: false },
      { policy_accept: ['Необходимо согласиться с политикой конфиденциальности'] },
    ],
    [{ send_accept: 'да' }, { send_accept: ['Должно быть булевым значением.'] }],
    [
      { phone: '123', delivery: '0' },
      { phone: ['Некорректный номер'], delivery: ['Выберите один из способов получения'] },
    ],
  ])('%j answers 400 %j', async (change, errors) => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/11', { amount: 1 });
    const { status, body } = await visitor.post('/api/catalog/order_commit', {
      ...validOrder,
      ...change,
    });
    expect(status).toBe(400);
    expect(body).toEqual(errors);
    // Nothing was ordered.
    expect(Object.keys((await visitor.get('/api/catalog/basket')).body as object)).toEqual(['11']);
  });

  it('a comment of exactly 150 characters is fine', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/11', { amount: 1 });
    const answer = await visitor.post('/api/catalog/order_commit', {
      ...validOrder,
      comment: 'я'.repeat(150),
    });
    expect(answer.status).toBe(201);
  });

  it('bad JSON answers 400', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status, body } = await visitor.request('POST', '/api/catalog/order_commit', {
      rawBody: '{phone: 1}',
    });
    expect(status).toBe(400);
    expect((body as { detail: string }).detail).toMatch(/^JSON parse error - /);
  });
});

describe('order_commit with an Idempotency-Key', () => {
  const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

  it('a repeat of the key places nothing more and gets the first answer again', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/7', { amount: 1 });
    const first = await visitor.post('/api/catalog/order_commit', validOrder, keyed('k-1'));
    expect(first.status).toBe(201);
    const again = await visitor.post('/api/catalog/order_commit', validOrder, keyed('k-1'));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await visitor.get('/api/catalog/order_history')).body).toHaveLength(1);
  });

  it('the same requests at once place one order; the others wait (409) or get its answer', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/7', { amount: 1 });
    const answers = await Promise.all(
      [1, 2, 3].map(() => visitor.post('/api/catalog/order_commit', validOrder, keyed('k-2'))),
    );
    const placed = answers.filter((answer) => answer.status === 201);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    for (const answer of placed) expect(answer.body).toEqual(placed[0]?.body);
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ detail: expect.stringMatching(/оформляется/) });
    }
    expect((await visitor.get('/api/catalog/order_history')).body).toHaveLength(1);
  });

  it('a refused order is answered again the same way; a new key is a new attempt', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/7', { amount: 1 });
    const bad = { ...validOrder, phone: '123' };
    const refused = await visitor.post('/api/catalog/order_commit', bad, keyed('k-3'));
    expect(refused.status).toBe(400);
    const again = await visitor.post('/api/catalog/order_commit', validOrder, keyed('k-3'));
    expect([again.status, again.body]).toEqual([400, refused.body]);
    const next = await visitor.post('/api/catalog/order_commit', validOrder, keyed('k-4'));
    expect(next.status).toBe(201);
  });

  it('a key is one visitor’s: another visitor with the same key places their own order', async () => {
    const anna = await new Visitor(server.url).start();
    const boris = await new Visitor(server.url).start();
    for (const visitor of [anna, boris]) await visitor.put('/api/catalog/basket/7', { amount: 1 });
    const first = await anna.post('/api/catalog/order_commit', validOrder, keyed('k-5'));
    const second = await boris.post('/api/catalog/order_commit', validOrder, keyed('k-5'));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((second.body as Order).id).not.toBe((first.body as Order).id);
  });

  it('a server error is not kept: the repeat places the order', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/7', { amount: 1 });
    await control(server.url, 'POST', '/faults', {
      path: '/api/catalog/order_commit',
      status: 500,
      times: 1,
    });
    const failed = await visitor.post('/api/catalog/order_commit', validOrder, keyed('k-6'));
    expect(failed.status).toBe(500);
    const retried = await visitor.post('/api/catalog/order_commit', validOrder, keyed('k-6'));
    expect(retried.status).toBe(201);
  });

  it('an over-long key answers 400 and places nothing', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/7', { amount: 1 });
    const answer = await visitor.post(
      '/api/catalog/order_commit',
      validOrder,
      keyed('k'.repeat(256)),
    );
    expect(answer.status).toBe(400);
    expect((await visitor.get('/api/catalog/order_history')).body).toEqual([]);
  });
});

describe('order_history', () => {
  it('is empty for a new visitor', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status, body } = await visitor.get('/api/catalog/order_history');
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it('answers the demo user orders newest first, statuses 0..5, correct sums', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.login();
    const { status, body } = await visitor.get('/api/catalog/order_history');
    expect(status).toBe(200);
    const orders = body as Order[];
    expect(orders.length).toBeGreaterThanOrEqual(5);
    orders.forEach(expectOrder);
    const times = orders.map((o) => Date.parse(o.created_ts));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    const yearAgo = Date.now() - 365 * 24 * 3600 * 1000;
    expect(times.every((t) => t > yearAgo && t < Date.now())).toBe(true);
  });

  it('an order placed while logged in joins the account history, first', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.login();
    await visitor.put('/api/catalog/basket/20', { amount: 0.5 });
    const placed = (await visitor.post('/api/catalog/order_commit', validOrder)).body as Order;
    expect(placed.order_sum).toBe(495);
    const history = (await visitor.get('/api/catalog/order_history')).body as Order[];
    expect(history[0]?.id).toBe(placed.id);
    // Another anonymous visitor does not see it.
    const stranger = await new Visitor(server.url).start();
    expect((await stranger.get('/api/catalog/order_history')).body).toEqual([]);
  });
});
