import { beforeEach, describe, expect, it } from 'vitest';
import { control, expectKeys, expectProduct, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile({ reset: true });

const amountError = (message: string | RegExp) => ({ amount: [expect.stringMatching(message)] });

describe('basket calls', () => {
  it('GET catalog/basket answers {} for a new visitor and sets the Django cookies', async () => {
    const visitor = new Visitor(server.url);
    const { status, body, headers } = await visitor.get('/api/catalog/basket');
    expect(status).toBe(200);
    expect(body).toEqual({});
    const cookies = headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('sessionid='));
    const csrf = cookies.find((c) => c.startsWith('csrftoken='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/Path=\//);
    expect(csrf).toMatch(/SameSite=Lax/);
    expect(csrf).toMatch(/Path=\//);
    expect(csrf).toMatch(/Max-Age=31449600/);
    expect(csrf).not.toMatch(/HttpOnly/);
    // Cookies already sent are not set again.
    const again = await visitor.get('/api/catalog/basket');
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('PUT catalog/basket/{id} answers the entry; GET basket is keyed by product id', async () => {
    const visitor = await new Visitor(server.url).start();
    const put = await visitor.put('/api/catalog/basket/7', { amount: 1.5 });
    expect(put.status).toBe(200);
    const entry = expectKeys(put.body, ['product', 'amount']);
    expectProduct(entry.product);
    expect(entry).toMatchObject({ amount: 1.5, product: { id: 7, name: 'Малина' } });

    await visitor.put('/api/catalog/basket/4', { amount: 3 });
    const { status, body } = await visitor.get('/api/catalog/basket');
    expect(status).toBe(200);
    const basket = body as Record<string, { product: { id: number }; amount: number }>;
    expect(Object.keys(basket).sort()).toEqual(['4', '7']);
    for (const [key, line] of Object.entries(basket)) {
      expectKeys(line, ['product', 'amount']);
      expectProduct(line.product);
      expect(String(line.product.id)).toBe(key);
    }
    expect(basket['7']?.amount).toBe(1.5);
    expect(basket['4']?.amount).toBe(3);
  });

  it('GET catalog/total_price answers a bare number over available priced lines', async () => {
    const visitor = await new Visitor(server.url).start();
    const empty = await visitor.get('/api/catalog/total_price');
    expect(empty.status).toBe(200);
    expect(empty.body).toBe(0);
    await visitor.put('/api/catalog/basket/7', { amount: 0.3 }); // 0.3 * 890 = 267
    await visitor.put('/api/catalog/basket/4', { amount: 2 }); // 2 * 420 = 840
    await visitor.put('/api/catalog/basket/50', { amount: 1.5 }); // no price: not counted
    await visitor.put('/api/catalog/basket/36', { amount: 0 });
    const { body, headers } = await visitor.get('/api/catalog/total_price');
    expect(headers.get('content-type')).toMatch(/application\/json/);
    expect(body).toBe(1107);
    // A product that sells out while in the basket stops counting.
    await control(server.url, 'POST', '/state', { product: { id: 4, rest: 0 } });
    expect((await visitor.get('/api/catalog/total_price')).body).toBe(267);
    expect(Object.keys((await visitor.get('/api/catalog/basket')).body as object)).toContain('4');
  });

  it('PUT amount 0 removes the line and still answers the entry', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/11', { amount: 2 });
    const { status, body } = await visitor.put('/api/catalog/basket/11', { amount: 0 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ amount: 0, product: { id: 11 } });
    expect((await visitor.get('/api/catalog/basket')).body).toEqual({});
  });

  it('DELETE catalog/basket/{id} answers 204 and removes the line; unknown product is 404', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/11', { amount: 2 });
    await visitor.put('/api/catalog/basket/12', { amount: 1 });
    const deleted = await visitor.delete('/api/catalog/basket/11');
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(Object.keys((await visitor.get('/api/catalog/basket')).body as object)).toEqual(['12']);
    // Not in the basket, but the product exists: still 204.
    expect((await visitor.delete('/api/catalog/basket/20')).status).toBe(204);
    const missing = await visitor.delete('/api/catalog/basket/9999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Не найдено.' });
  });

  it('accepts amounts on the step grid despite float noise', async () => {
    const visitor = await new Visitor(server.url).start();
    const noisy = 0.1 + 0.2; // 0.30000000000000004
    const answer = await visitor.put('/api/catalog/basket/7', { amount: noisy });
    expect(answer.status).toBe(200);
    expect((answer.body as { amount: number }).amount).toBe(0.3);
    expect((await visitor.put('/api/catalog/basket/1', { amount: 2.5 })).status).toBe(200);
    expect((await visitor.put('/api/catalog/basket/21', { amount: 0.7 })).status).toBe(200); // step null = 0.1
    expect((await visitor.put('/api/catalog/basket/3', { amount: 3 })).status).toBe(200); // = rest
    expect((await visitor.put('/api/catalog/basket/8', { amount: 2.5 })).status).toBe(200); // = rest
  });
});

describe('basket validation', () => {
  let visitor: Visitor;
  beforeEach(async () => {
    visitor = await new Visitor(server.url).start();
  });

  it('bad JSON answers 400 JSON parse error', async () => {
    const { status, body } = await visitor.request('PUT', '/api/catalog/basket/7', {
      rawBody: '{"amount": ',
    });
    expect(status).toBe(400);
    expect((body as { detail: string }).detail).toMatch(/^JSON parse error - /);
  });

  it.each([
    [{ amount: -1 }, 'Убедитесь, что значение больше или равно 0.'],
    [{ amount: '2' }, 'Требуется численное значение.'],
    [{}, 'Это обязательное поле'],
    [{ amount: null }, 'Это обязательное поле'],
    [{ amount: 11 }, 'Убедитесь, что значение меньше или равно 10.'],
    [{ amount: 0.25 }, 'Количество должно быть кратно 0,1'],
    [{ amount: 1e-9 }, 'Количество должно быть кратно 0,1'],
    [{ amount: 0.05 }, 'Количество должно быть кратно 0,1'],
    [{ amount: -1e-9 }, 'Убедитесь, что значение больше или равно 0.'],
  ])('Малина (кг, step 0.1, rest 15): %j answers 400 %s', async (payload, message) => {
    const { status, body } = await visitor.put('/api/catalog/basket/7', payload);
    expect(status).toBe(400);
    expect(body).toEqual({ amount: [message] });
  });

  it('over the stock answers 400 with the stock limit', async () => {
    const { status, body } = await visitor.put('/api/catalog/basket/3', { amount: 3.1 });
    expect(status).toBe(400);
    expect(body).toEqual({ amount: ['Убедитесь, что значение меньше или равно 3.'] });
    const half = await visitor.put('/api/catalog/basket/8', { amount: 2.6 });
    expect(half.body).toEqual({ amount: ['Убедитесь, что значение меньше или равно 2,5.'] });
  });

  it('an amount a hair off 0 answers 400 and leaves the line as it was', async () => {
    expect((await visitor.put('/api/catalog/basket/7', { amount: 1.5 })).status).toBe(200);
    expect((await visitor.put('/api/catalog/basket/4', { amount: 2 })).status).toBe(200);
    for (const [id, amount, message] of [
      [7, 1e-9, 'Количество должно быть кратно 0,1'],
      [7, -1e-9, 'Убедитесь, что значение больше или равно 0.'],
      [4, 1e-9, 'Для штучного товара укажите целое число'],
      [4, -0.5, 'Убедитесь, что значение больше или равно 0.'],
    ] as const) {
      const { status, body } = await visitor.put(`/api/catalog/basket/${id}`, { amount });
      expect(status, `${id}: ${amount}`).toBe(400);
      expect(body).toEqual({ amount: [message] });
    }
    const basket = (await visitor.get('/api/catalog/basket')).body as Record<
      string,
      { amount: number }
    >;
    expect(basket['7']?.amount).toBe(1.5);
    expect(basket['4']?.amount).toBe(2);
  });

  it('fractional pieces answer 400', async () => {
    const { status, body } = await visitor.put('/api/catalog/basket/4', { amount: 1.5 });
    expect(status).toBe(400);
    expect(body).toEqual(amountError('Для штучного товара укажите целое число'));
  });

  it('a step of 0.5 rejects 0.3', async () => {
    const { status, body } = await visitor.put('/api/catalog/basket/1', { amount: 0.3 });
    expect(status).toBe(400);
    expect(body).toEqual({ amount: ['Количество должно быть кратно 0,5'] });
  });

  it('a sold-out product cannot be added but can be set to 0', async () => {
    const { status, body } = await visitor.put('/api/catalog/basket/5', { amount: 1 });
    expect(status).toBe(400);
    expect(body).toEqual({ amount: ['Товар закончился'] });
    expect((await visitor.put('/api/catalog/basket/5', { amount: 0 })).status).toBe(200);
  });

  it('unknown and non-numeric ids answer 404', async () => {
    for (const path of ['/api/catalog/basket/9999', '/api/catalog/basket/abc']) {
      const { status, body } = await visitor.put(path, { amount: 1 });
      expect(status, path).toBe(404);
      expect(body).toEqual({ detail: 'Не найдено.' });
    }
  });

  it('a body that is not an object answers 400 non_field_errors', async () => {
    const { status, body } = await visitor.put('/api/catalog/basket/7', [1]);
    expect(status).toBe(400);
    expect(Object.keys(body as object)).toEqual(['non_field_errors']);
  });

  it('a body in an unsupported format answers 415', async () => {
    const { status } = await visitor.request('PUT', '/api/catalog/basket/7', {
      rawBody: 'amount=1',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(status).toBe(415);
  });
});

describe('basket scope', () => {
  it('two cookie jars have two baskets', async () => {
    const anna = await new Visitor(server.url).start();
    const boris = await new Visitor(server.url).start();
    expect(anna.jar.get('sessionid')).not.toBe(boris.jar.get('sessionid'));
    await anna.put('/api/catalog/basket/7', { amount: 1 });
    await boris.put('/api/catalog/basket/20', { amount: 2 });
    expect(Object.keys((await anna.get('/api/catalog/basket')).body as object)).toEqual(['7']);
    expect(Object.keys((await boris.get('/api/catalog/basket')).body as object)).toEqual(['20']);
    expect((await anna.get('/api/catalog/total_price')).body).toBe(890);
    expect((await boris.get('/api/catalog/total_price')).body).toBe(1980);
  });

  it('a logged-in visitor uses the account basket, shared across browsers', async () => {
    const phone = await new Visitor(server.url).start();
    const laptop = await new Visitor(server.url).start();
    await phone.login();
    await laptop.login();
    await phone.put('/api/catalog/basket/16', { amount: 1 });
    const seen = (await laptop.get('/api/catalog/basket')).body as Record<string, unknown>;
    expect(Object.keys(seen)).toEqual(['16']);
    // Logged out (no token), the browser's own session basket is separate again.
    phone.token = null;
    expect((await phone.get('/api/catalog/basket')).body).toEqual({});
  });

  it('logging in moves the anonymous basket into the account', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.put('/api/catalog/basket/22', { amount: 1.2 });
    await visitor.login();
    const basket = (await visitor.get('/api/catalog/basket')).body as Record<
      string,
      { amount: number }
    >;
    expect(basket['22']?.amount).toBe(1.2);
    visitor.token = null;
    expect((await visitor.get('/api/catalog/basket')).body).toEqual({});
  });
});
