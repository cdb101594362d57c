// The app's basket store and order calls, as they are (src/features/basket/store.ts and
// src/api/*), against the real stub: a browser-like fetch keeps the stub's cookies and the app's
// HTTP client sends the anti-forgery header from them.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../src/api/http';
import { commitOrder, getOrderHistory } from '../../src/api/orders';
import type { Product } from '../../src/api/types';
import { increased } from '../../src/lib/amount';
import { CookieJar, control, startTestServer, type TestServer, Visitor } from './helpers.ts';

const notify = vi.hoisted(() => ({
  notifyError: vi.fn(),
  showRetryNotice: vi.fn(),
  hideRetryNotice: vi.fn(),
}));
vi.mock('../../src/ui/notify', () => notify);

const { amountOf, createBasketStore, lineCount } = await import('../../src/features/basket/store');
type BasketStore = ReturnType<typeof createBasketStore>;
// Each test's basket is a fresh one, as a page's is.
let basket: BasketStore['state'];
let loadBasket: BasketStore['loadBasket'];
let removeLine: BasketStore['removeLine'];
let setAmount: BasketStore['setAmount'];
let takeOrderedLines: BasketStore['takeOrderedLines'];

let server: TestServer;
let jar: CookieJar;
let calls: { method: string; path: string; body?: string }[];
const realFetch = globalThis.fetch;

/**
 * A browser for one site: cookies kept and sent back, every call recorded. Only the app's own
 * calls go through it; the helpers' requests (controls, a Visitor with its own cookies) pass.
 */
async function browserFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const isAppCall =
    new URL(request.url).pathname.startsWith('/api/') && !request.headers.has('Cookie');
  if (!isAppCall) return realFetch(input, init);
  const headers = new Headers(request.headers);
  const cookie = jar.header();
  if (cookie) headers.set('Cookie', cookie);
  const body = request.method === 'GET' ? undefined : await request.text();
  calls.push({ method: request.method, path: new URL(request.url).pathname, body });
  const response = await realFetch(request.url, { method: request.method, headers, body });
  jar.store(response);
  return response;
}

beforeAll(async () => {
  server = await startTestServer();
  configureApi({
    baseURL: new URL('/api', server.url).href,
    csrfToken: () => jar.get('csrftoken') ?? null,
    onUnauthorized: () => {},
  });
  vi.stubGlobal('fetch', browserFetch);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await server.dispose();
});
beforeEach(async () => {
  expect((await control(server.url, 'POST', '/reset')).status).toBe(200);
  jar = new CookieJar();
  calls = [];
  ({ state: basket, loadBasket, removeLine, setAmount, takeOrderedLines } = createBasketStore());
  await loadBasket(); // start-up load: receives the session and CSRF cookies
  calls = [];
});
afterEach(() => vi.clearAllMocks());

/** What the stub holds for this visitor, read past the store. */
async function serverBasket(): Promise<Record<string, number>> {
  const visitor = new Visitor(server.url);
  for (const name of ['sessionid', 'csrftoken']) visitor.jar.set(name, jar.get(name)!);
  const { body } = await visitor.get('/api/catalog/basket');
  const lines = body as Record<string, { amount: number }>;
  return Object.fromEntries(Object.entries(lines).map(([id, line]) => [id, line.amount]));
}

const product = async (id: number): Promise<Product> => {
  const response = await realFetch(new URL(`/api/catalog/product_retrieve/${id}`, server.url));
  return (await response.json()) as Product;
};

describe('the basket store against the stub', () => {
  it('adds a piece line and a weight line; the total is refetched after each', async () => {
    const jam = await product(43); // 390 ₽ / шт
    const raspberry = await product(7); // 890 ₽ / кг
    await setAmount(jam, 1);
    await setAmount(raspberry, 1.5);
    expect(amountOf(basket.lines, 43)).toBe(1);
    expect(amountOf(basket.lines, 7)).toBe(1.5);
    expect(basket.amount_sum).toBe(390 + 1335);
    expect(lineCount(basket.lines)).toBe(2);
    expect(await serverBasket()).toEqual({ '43': 1, '7': 1.5 });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /api/catalog/basket/43',
      'GET /api/catalog/total_price',
      'PUT /api/catalog/basket/7',
      'GET /api/catalog/total_price',
    ]);
  });

  it('one call per line at a time: a change asked for while one is on its way is not sent', async () => {
    const jam = await product(43);
    const first = setAmount(jam, 1);
    const second = setAmount(jam, increased(jam, amountOf(basket.lines, 43)));
    expect(basket.lineLoading['43']).toBe(true);
    await Promise.all([first, second]);
    expect(amountOf(basket.lines, 43)).toBe(1);
    expect(basket.lineLoading['43']).toBeUndefined();
    expect(await serverBasket()).toEqual({ '43': 1 });
    // Once answered, the line takes the next change.
    await setAmount(jam, increased(jam, amountOf(basket.lines, 43)));
    expect(await serverBasket()).toEqual({ '43': 2 });
    expect(calls.filter((c) => c.method === 'PUT').map((c) => JSON.parse(c.body!))).toEqual([
      { amount: 1 },
      { amount: 2 },
    ]);
    expect(basket.amount_sum).toBe(780);
  });

  it('removing DELETEs the line and refetches the total', async () => {
    const jam = await product(43);
    const raspberry = await product(7);
    await setAmount(jam, 2);
    await setAmount(raspberry, 0.5);
    calls = [];
    await removeLine(jam);
    expect(basket.lines['43']).toBeUndefined();
    expect(basket.amount_sum).toBe(445);
    expect(await serverBasket()).toEqual({ '7': 0.5 });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'DELETE /api/catalog/basket/43',
      'GET /api/catalog/total_price',
    ]);
  });

  it('a refused amount returns the line to the server amount and says why', async () => {
    const cherry = await product(26); // by 0.5 kg, 4.5 in stock
    await setAmount(cherry, 1);
    // The stock drops under the wish while the page still shows the old rest.
    await control(server.url, 'POST', '/state', { product: { id: 26, rest: 1.5 } });
    await setAmount(cherry, 2);
    expect(amountOf(basket.lines, 26)).toBe(1);
    expect(notify.notifyError).toHaveBeenCalledWith(
      expect.stringMatching(
        /^Не удалось изменить количество «Черешня»: Убедитесь, что значение меньше или равно 1,5\.?$/,
      ),
    );
    expect(await serverBasket()).toEqual({ '26': 1 });
    // The basket was read again: the line now carries the stock as it is, so plus stops there.
    expect(basket.lines['26']?.product.rest).toBe(1.5);
    expect(basket.checkedProducts['26']?.rest).toBe(1.5);
    expect(calls.map((c) => `${c.method} ${c.path}`).slice(-3)).toEqual([
      'PUT /api/catalog/basket/26',
      'GET /api/catalog/basket',
      'GET /api/catalog/total_price',
    ]);
  });

  it('a server failure rolls the line back', async () => {
    const jam = await product(43);
    await setAmount(jam, 2);
    await control(server.url, 'POST', '/faults', {
      path: '/api/catalog/basket/43',
      status: 500,
      times: 1,
    });
    await setAmount(jam, 3);
    expect(amountOf(basket.lines, 43)).toBe(2);
    expect(notify.notifyError).toHaveBeenCalledTimes(1);
  });

  it('a reload loads the lines and the total as the server holds them', async () => {
    const raspberry = await product(7);
    await setAmount(raspberry, 1.5);
    // Another page: a basket of its own, loaded from the server.
    ({ state: basket, loadBasket, removeLine, setAmount, takeOrderedLines } = createBasketStore());
    await loadBasket();
    expect(amountOf(basket.lines, 7)).toBe(1.5);
    expect(basket.lines['7']?.product.name).toBe('Малина');
    expect(basket.amount_sum).toBe(1335);
  });
});

describe('placing the order from the store’s basket', () => {
  it('commits, empties the basket and the order leads the history with the right sum', async () => {
    const jam = await product(43);
    const raspberry = await product(7);
    await setAmount(jam, 2);
    await setAmount(raspberry, 1.5);
    const order = await commitOrder(
      {
        delivery: '1',
        policy_accept: true,
        send_accept: false,
        comment: '',
        phone: '+7(912)-345-67-89',
      },
      crypto.randomUUID(),
    );
    expect(order.status).toBe(0);
    expect(order.order_sum).toBe(780 + 1335);
    await loadBasket();
    expect(lineCount(basket.lines)).toBe(0);
    expect(basket.amount_sum).toBe(0);
    const history = await getOrderHistory();
    expect(history[0]?.id).toBe(order.id);
    expect(history[0]?.order_sum).toBe(2115);
  });

  it('the ordered lines leave the store’s basket even when the reload after the order fails', async () => {
    const jam = await product(43);
    const raspberry = await product(7);
    await setAmount(jam, 2);
    await setAmount(raspberry, 1.5);
    const order = await commitOrder(
      {
        delivery: '2',
        policy_accept: true,
        send_accept: false,
        comment: '',
        phone: '+7(912)-345-67-89',
      },
      crypto.randomUUID(),
    );
    await control(server.url, 'POST', '/faults', {
      path: '/api/catalog/basket',
      method: 'GET',
      status: 500,
      times: 1,
    });
    await takeOrderedLines(order);
    // The stub answered with an error: not a lost connection.
    expect(basket.loadFailure).toBe('error');
    expect(lineCount(basket.lines)).toBe(0);
    expect(basket.amount_sum).toBe(0);
    expect(await serverBasket()).toEqual({});
  });

  it('the stub refuses what the form refuses, with the form’s own messages', async () => {
    const jam = await product(43);
    await setAmount(jam, 1);
    const error = await commitOrder(
      {
        delivery: '3' as '1',
        policy_accept: true,
        send_accept: false,
        comment: 'я'.repeat(151),
        phone: '+7(812)-345-67-89',
      },
      crypto.randomUUID(),
    ).catch((e: unknown) => e);
    const { fieldErrors } = await import('../../src/api/http');
    expect(fieldErrors(error)).toEqual({
      phone: ['Некорректный номер'],
      comment: ['Максимальная длина 150'],
      delivery: ['Выберите один из способов получения'],
    });
    expect(await serverBasket()).toEqual({ '43': 1 });
  });
});
