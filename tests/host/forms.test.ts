// The forms the shop's server handles without the app (src/server-entry/forms.ts), each through the
// forms' table as the server calls it, in front of a fake backend that records what it was sent:
// what a form refuses without asking the backend, what it says when the backend refuses, fails or
// stalls, and what it sends when all goes well.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Basket, Order, Product } from '../../src/api/types';
import { PHONE_INVALID } from '../../src/lib/phone';
import {
  LOGIN_REFUSED,
  PASSWORD_REQUIRED,
  WRONG_CREDENTIALS,
} from '../../src/features/session/login-error';
import { backendCalls, type Visitor } from '../../src/server-entry/backend-calls';
import {
  BASKET_LATE,
  BASKET_MAYBE_CHANGED,
  FORM_BROKEN,
  PRODUCT_GONE,
} from '../../src/server-entry/basket-form';
import { ORDER_LATE, ORDER_MAYBE_PLACED } from '../../src/server-entry/commit-form';
import { type FormAnswer, FORMS } from '../../src/server-entry/forms';
import { COOKIES } from '../../src/lib/cookie-table';

/** What a basket form that landed sets: the cookie that says the basket has lines. */
const BASKET_MARK = { cookie: COOKIES.basket, value: '1' };
import { LOGIN_LATE } from '../../src/server-entry/login-form';
import { answer, json, raspberry, type Reply } from './fake-replies';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A form's budget, as the server's default gives it. Stalls run it out on a fake clock. */
const FORM_BUDGET_MS = 8_000;

/** What the backend was sent. */
interface SentRequest {
  method: string;
  /** The path as the backend sees it, /api included. */
  path: string;
  headers: Headers;
  /** The JSON body, parsed; undefined when none was sent. */
  body: unknown;
}

/** The backend's answers, by `METHOD /api/path`; anything else is Django's 404. */
type Routes = Record<string, (request: SentRequest) => Reply>;

function fakeBackend(routes: Routes) {
  const sent: SentRequest[] = [];
  let stalled = () => {};
  /** Resolves once a call is being held (a stall has begun). */
  const held = new Promise<void>((resolve) => {
    stalled = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    const seen: SentRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    sent.push(seen);
    const route = routes[`${seen.method} ${seen.path}`];
    const reply = route ? route(seen) : json(404, { detail: 'Страница не найдена.' });
    return answer(reply, init, stalled);
  };
  return {
    backend: { baseURL: 'http://backend.test/api', fetch },
    sent,
    held,
    /** The calls made, as `METHOD /api/path`, in order. */
    calls: () => sent.map(({ method, path }) => `${method} ${path}`),
  };
}

type FakeBackend = ReturnType<typeof fakeBackend>;

const visitor = (cookies: Record<string, string> = {}): Visitor => ({
  cookies,
  forwardedFor: '203.0.113.7',
  proto: 'https',
  host: 'shop.example',
});

interface Post {
  fields: Record<string, unknown>;
  cookies?: Record<string, string>;
  /** The query of the address posted to. */
  query?: string;
}

/** Posts a form to the server's handler for `path`, with the calls ended after, as the server does. */
async function post(
  path: string,
  { backend }: FakeBackend,
  { fields, cookies, query }: Post,
): Promise<FormAnswer> {
  const handle = FORMS[path];
  if (!handle) throw new Error(`no form at ${path}`);
  const calls = backendCalls(backend, visitor(cookies), FORM_BUDGET_MS);
  try {
    return await handle({ calls, fields, query: new URLSearchParams(query) });
  } finally {
    calls.end();
  }
}

/** Posts a form while the backend holds a call: once it holds one, the form's budget runs out. */
async function postPastBudget(path: string, fake: FakeBackend, form: Post): Promise<FormAnswer> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const answer = post(path, fake, form);
  await fake.held;
  await vi.advanceTimersByTimeAsync(FORM_BUDGET_MS);
  return answer;
}

afterEach(() => {
  vi.useRealTimers();
});

const strawberry: Product = {
  id: 8,
  name: 'Клубника',
  image: null,
  unit: 'кг',
  unit_step: 0.5,
  price: 600,
  rest: 8,
  available: true,
};

const basketOf = (...lines: [Product, number][]): Basket =>
  Object.fromEntries(lines.map(([product, amount]) => [String(product.id), { product, amount }]));

/** What order_commit answers for a placed order: the order, as the server checks it. */
const placedOrder: Order = {
  id: 8,
  created_ts: '2026-11-20T14:05:00+03:00',
  status: 0,
  order_sum: 500,
  items: [{ id: 1, amount: 2, price: 250, product: { id: 7, name: 'Малина', unit: 'шт' } }],
};

describe('the basket form', () => {
  const BACK = '/section/3?page=2';

  it.each([
    ['no product', { change: 'plus' }],
    ['a product that is no id', { product: '7abc', change: 'plus' }],
    ['product 0', { product: '0', change: 'plus' }],
    ['a product sent twice', { product: ['7', '8'], change: 'plus' }],
    ['an unknown change', { product: '7', change: 'double' }],
    ['no change', { product: '7' }],
  ])('%s: «form broken», and nothing is sent to the backend', async (_, fields) => {
    const fake = fakeBackend({});
    const answer = await post('/basket', fake, { fields: { ...fields, back: BACK } });
    expect(answer).toEqual({ kind: 'redirect', location: BACK, notice: FORM_BROKEN });
    expect(fake.calls()).toEqual([]);
  });

  it('a product the backend no longer has: «product gone», nothing written', async () => {
    const fake = fakeBackend({ 'GET /api/catalog/basket': () => json(200, {}) });
    const answer = await post('/basket', fake, {
      fields: { product: '7', change: 'add', back: BACK },
    });
    expect(answer).toEqual({ kind: 'redirect', location: BACK, notice: PRODUCT_GONE });
    expect(fake.calls()).toEqual([
      'GET /api/catalog/basket',
      'GET /api/catalog/product_retrieve/7',
    ]);
  });

  it('the backend down: «basket unreachable»', async () => {
    const fake = fakeBackend({ 'GET /api/catalog/basket': () => 'down' });
    const answer = await post('/basket', fake, {
      fields: { product: '7', change: 'plus', back: BACK },
    });
    expect(answer).toEqual({
      kind: 'redirect',
      location: BACK,
      notice:
        'Не удалось изменить корзину: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    });
  });

  it('a stall before the change was sent: «too late, the basket did not change», and no write', async () => {
    const fake = fakeBackend({ 'GET /api/catalog/basket': () => 'stall' });
    const answer = await postPastBudget('/basket', fake, {
      fields: { product: '7', change: 'plus', back: BACK },
    });
    expect(answer).toEqual({ kind: 'redirect', location: BACK, notice: BASKET_LATE });
    expect(fake.calls()).toEqual(['GET /api/catalog/basket']);
  });

  it('a stall on the change itself: «the basket may have changed»', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () => json(200, basketOf([raspberry, 2])),
      'PUT /api/catalog/basket/7': () => 'stall',
    });
    const answer = await postPastBudget('/basket', fake, {
      fields: { product: '7', change: 'plus', back: BACK },
    });
    expect(answer).toEqual({ kind: 'redirect', location: BACK, notice: BASKET_MAYBE_CHANGED });
  });

  it("a change the backend refuses: the app's message with the backend's reason", async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () => json(200, basketOf([raspberry, 2])),
      'PUT /api/catalog/basket/7': () => json(400, { amount: ['На складе осталось 2 шт.'] }),
    });
    const answer = await post('/basket', fake, {
      fields: { product: '7', change: 'plus', back: BACK },
    });
    expect(answer).toEqual({
      kind: 'redirect',
      location: BACK,
      notice: 'Не удалось изменить количество «Малина»: На складе осталось 2 шт.',
    });
  });

  const changes = [
    {
      name: 'plus, one piece more',
      product: raspberry,
      current: 2,
      fields: { change: 'plus' },
      write: { method: 'PUT', body: { amount: 3 } },
    },
    {
      name: 'minus, one step of 0.5 kg less',
      product: strawberry,
      current: 1.5,
      fields: { change: 'minus' },
      write: { method: 'PUT', body: { amount: 1 } },
    },
    {
      name: 'a typed amount, kept to the stock',
      product: raspberry,
      current: 2,
      fields: { change: 'set', amount: '25' },
      write: { method: 'PUT', body: { amount: 5 } },
    },
    {
      name: 'a typed amount, on the step grid',
      product: strawberry,
      current: 1,
      fields: { change: 'set', amount: '2,7' },
      write: { method: 'PUT', body: { amount: 2.5 } },
    },
    {
      name: 'delete, the whole line',
      product: strawberry,
      current: 1.5,
      fields: { change: 'delete' },
      write: { method: 'DELETE', body: undefined },
    },
  ];

  it.each(changes)(
    '$name: the change goes to the backend, and back to the page it came from',
    async ({ product, current, fields, write }) => {
      const path = `/api/catalog/basket/${product.id}`;
      const fake = fakeBackend({
        'GET /api/catalog/basket': () => json(200, basketOf([product, current])),
        [`${write.method} ${path}`]: () =>
          write.body ? json(200, { product, ...write.body }) : new Response(null, { status: 204 }),
      });
      const answer = await post('/basket', fake, {
        fields: { product: String(product.id), ...fields, back: BACK },
      });
      expect(answer).toEqual({ kind: 'redirect', location: BACK, cookie: BASKET_MARK });
      const sent = fake.sent.map(({ method, path, body }) => ({ method, path, body }));
      expect(sent).toEqual([
        { method: 'GET', path: '/api/catalog/basket', body: undefined },
        { method: write.method, path, body: write.body },
      ]);
    },
  );

  it.each([
    ["DRF's Response(status=200): no type", () => new Response(new Uint8Array(0), { status: 200 })],
    [
      "Django's HttpResponse(status=200): text/html",
      () =>
        new Response('', { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    ],
  ])(
    'delete answered 200 with an empty body (%s): the line goes, as with 204',
    async (_, reply) => {
      const fake = fakeBackend({
        'GET /api/catalog/basket': () => json(200, basketOf([strawberry, 1.5])),
        'DELETE /api/catalog/basket/8': reply,
      });
      const answer = await post('/basket', fake, {
        fields: { product: '8', change: 'delete', back: BACK },
      });
      expect(answer).toEqual({ kind: 'redirect', location: BACK, cookie: BASKET_MARK });
      expect(fake.calls()).toEqual(['GET /api/catalog/basket', 'DELETE /api/catalog/basket/8']);
    },
  );

  it('plus at the stock: nothing is written, and no message', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () => json(200, basketOf([raspberry, raspberry.rest])),
    });
    const answer = await post('/basket', fake, { fields: { product: '7', change: 'plus' } });
    expect(answer).toEqual({ kind: 'redirect', location: '/', cookie: BASKET_MARK });
    expect(fake.calls()).toEqual(['GET /api/catalog/basket']);
  });
});

describe('the checkout form', () => {
  /** The attempt's key, as the form's hidden field holds it. */
  const KEY = '6f2d1c3b-8a4e-4b5f-9c7d-1e2f3a4b5c6d';
  const form = {
    phone: '8 912 345-67-89',
    comment: '  Позвонить за час  ',
    delivery: '1',
    policy_accept: 'on',
    idempotency_key: KEY,
  };
  /** The form as the page shows it again: the phone as the mask writes it, the rest as typed. */
  const kept = { ...form, phone: '+7(912)-345-67-89' };

  /** A backend with the visitor's basket, emptied by the order it places. */
  function shop(routes: Routes = {}) {
    let lines = basketOf([raspberry, 2]);
    return fakeBackend({
      'GET /api/catalog/basket': () => json(200, lines),
      'POST /api/catalog/order_commit': () => {
        lines = {};
        return json(201, placedOrder);
      },
      ...routes,
    });
  }

  it('an invalid phone: the form again with its message and what was typed, nothing sent', async () => {
    const fake = shop();
    const answer = await post('/commit', fake, {
      fields: { ...form, phone: '12345' },
      cookies: { sessionid: 'invalid-phone' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: { ...kept, phone: '12345' }, errors: { phone: PHONE_INVALID } },
    });
    expect(fake.calls()).toEqual([]);
  });

  it('an empty basket: asked once under the form’s key, refused: back to /commit', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () => json(200, {}),
      'POST /api/catalog/order_commit': () =>
        json(400, { non_field_errors: ['В корзине нет доступных товаров'] }),
    });
    const answer = await post('/commit', fake, {
      fields: form,
      cookies: { sessionid: 'empty-basket' },
    });
    expect(answer).toEqual({ kind: 'redirect', location: '/commit' });
    expect(fake.calls()).toEqual(['GET /api/catalog/basket', 'POST /api/catalog/order_commit']);
  });

  it('an empty basket emptied by this attempt’s order: its answer again, on to /order_status', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () => json(200, {}),
      'POST /api/catalog/order_commit': () => json(201, placedOrder),
    });
    const answer = await post('/commit', fake, {
      fields: form,
      cookies: { sessionid: 'placed-already' },
    });
    expect(answer).toEqual({ kind: 'redirect', location: '/order_status' });
    expect(fake.sent[1]?.headers.get('Idempotency-Key')).toBe(KEY);
  });

  it('the backend refuses the order: its message, the form kept, under a new key', async () => {
    const fake = shop({
      'POST /api/catalog/order_commit': () => json(400, { phone: ['Некорректный номер'] }),
    });
    const answer = await post('/commit', fake, {
      fields: form,
      cookies: { sessionid: 'refused' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: {
        values: { ...kept, idempotency_key: expect.stringMatching(UUID) },
        errors: { phone: 'Некорректный номер' },
      },
    });
    const values = answer.kind === 'page' ? answer.outcome.values : {};
    expect(values?.idempotency_key).not.toBe(KEY);
  });

  it('a form without a key (or a forged one) is sent under a key of its own', async () => {
    for (const idempotency_key of [undefined, 'not-a-key']) {
      const fake = shop();
      await post('/commit', fake, {
        fields: { ...form, idempotency_key },
        cookies: { sessionid: 'no-key' },
      });
      expect(fake.sent[1]?.headers.get('Idempotency-Key')).toMatch(UUID);
    }
  });

  it("an order placed: on to /order_status, after one order_commit with the spec's payload", async () => {
    const fake = shop();
    const answer = await post('/commit', fake, {
      fields: form,
      cookies: { sessionid: 'one-order', csrftoken: 'csrf-1' },
    });
    expect(answer).toEqual({ kind: 'redirect', location: '/order_status' });
    const orders = fake.sent.filter(({ path }) => path === '/api/catalog/order_commit');
    expect(orders).toHaveLength(1);
    expect(orders[0]?.method).toBe('POST');
    expect(orders[0]?.body).toEqual({
      delivery: '1',
      policy_accept: true,
      send_accept: false,
      comment: 'Позвонить за час',
      phone: '+7(912)-345-67-89',
    });
    expect(orders[0]?.headers.get('X-CSRFToken')).toBe('csrf-1');
    expect(orders[0]?.headers.get('Idempotency-Key')).toBe(KEY);
  });

  it('a stall on the basket: «too late, nothing ordered», the form kept, no order sent', async () => {
    const fake = shop({ 'GET /api/catalog/basket': () => 'stall' });
    const answer = await postPastBudget('/commit', fake, {
      fields: form,
      cookies: { sessionid: 'basket-stall' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: kept, errors: {}, notice: ORDER_LATE },
    });
    expect(fake.calls()).toEqual(['GET /api/catalog/basket']);
  });

  it('a stall on the order: «the order may have been placed», the form kept', async () => {
    const fake = shop({ 'POST /api/catalog/order_commit': () => 'stall' });
    const answer = await postPastBudget('/commit', fake, {
      fields: form,
      cookies: { sessionid: 'order-stall' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: kept, errors: {}, notice: ORDER_MAYBE_PLACED },
    });
  });

  it('the same form posted twice at once: one key, and the second gets the first answer', async () => {
    // As the backend honours the key: the second post, while the first is placed, is told 409.
    let asked = 0;
    let placed = 0;
    const fake = shop({
      'POST /api/catalog/order_commit': () => {
        asked += 1;
        if (asked === 2) return json(409, { detail: 'Заказ с этим ключом ещё оформляется.' });
        if (asked === 1) placed += 1;
        return json(201, placedOrder);
      },
    });
    const twice = { fields: form, cookies: { sessionid: 'double-click' } };
    const answers = await Promise.all([post('/commit', fake, twice), post('/commit', fake, twice)]);
    for (const answer of answers) {
      expect(answer).toEqual({ kind: 'redirect', location: '/order_status' });
    }
    const orders = fake.sent.filter(({ path }) => path === '/api/catalog/order_commit');
    expect(orders.map(({ headers }) => headers.get('Idempotency-Key'))).toEqual([KEY, KEY, KEY]);
    expect(placed).toBe(1);
  });
});

describe('the login form', () => {
  const signedIn = (token: string) => ({ 'POST /api/auth/token/': () => json(200, { token }) });

  it.each([
    ['blank', ''],
    ['spaces only', '   '],
  ])("a %s password: the app's «enter the password», and nothing sent", async (_, password) => {
    const fake = fakeBackend(signedIn('never'));
    const answer = await post('/login/', fake, { fields: { username: 'anna', password } });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: { username: 'anna' }, errors: { password: PASSWORD_REQUIRED } },
    });
    expect(fake.calls()).toEqual([]);
  });

  it('a newcomer: the basket hands out a CSRF token first, and the login carries it', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () =>
        json(200, {}, ['csrftoken=fresh-token; Path=/', 'sessionid=fresh-session; Path=/']),
      ...signedIn('t0ken'),
    });
    const answer = await post('/login/', fake, {
      fields: { username: 'anna', password: 'secret' },
    });
    expect(answer.kind).toBe('redirect');
    expect(fake.calls()).toEqual(['GET /api/catalog/basket', 'POST /api/auth/token/']);
    const login = fake.sent[1];
    expect(login?.headers.get('X-CSRFToken')).toBe('fresh-token');
    expect(login?.body).toEqual({ username: 'anna', password: 'secret' });
  });

  it('a stale CSRF token: refused (403), a fresh one from the basket, and the login again with it', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () =>
        json(200, {}, ['csrftoken=fresh-token; Path=/', 'sessionid=fresh-session; Path=/']),
      'POST /api/auth/token/': ({ headers }) =>
        headers.get('X-CSRFToken') === 'fresh-token'
          ? json(200, { token: 't0ken' })
          : json(403, { detail: 'CSRF Failed: CSRF token missing or incorrect.' }),
    });
    const answer = await post('/login/', fake, {
      fields: { username: 'anna', password: 'secret' },
      cookies: { sessionid: 'bogus', csrftoken: 'bogus' },
    });
    expect(answer).toMatchObject({ kind: 'redirect', location: '/' });
    expect(fake.calls()).toEqual([
      'POST /api/auth/token/',
      'GET /api/catalog/basket',
      'POST /api/auth/token/',
    ]);
  });

  it('refused (403) even with a fresh CSRF token: «the server refused», not «no answer»', async () => {
    const fake = fakeBackend({
      'GET /api/catalog/basket': () => json(200, {}, ['csrftoken=fresh-token; Path=/']),
      'POST /api/auth/token/': () => json(403, { detail: 'Доступ запрещён.' }),
    });
    const answer = await post('/login/', fake, {
      fields: { username: 'anna', password: 'secret' },
      cookies: { csrftoken: 'c' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: { username: 'anna' }, notice: LOGIN_REFUSED },
    });
    // Once more, never again.
    expect(fake.calls().filter((call) => call === 'POST /api/auth/token/')).toHaveLength(2);
  });

  it("a visitor's old token is not sent with the login", async () => {
    const fake = fakeBackend(signedIn('new-token'));
    await post('/login/', fake, {
      fields: { username: 'anna', password: 'secret' },
      cookies: { sessionid: 's', csrftoken: 'c', jwt: 'old-token' },
    });
    expect(fake.calls()).toEqual(['POST /api/auth/token/']);
    const login = fake.sent[0];
    expect(login?.headers.get('Authorization')).toBeNull();
    expect(login?.headers.get('Cookie')).toBe('sessionid=s; csrftoken=c');
    expect(login?.headers.get('X-CSRFToken')).toBe('c');
  });

  it('wrong credentials: «wrong login or password», the login kept, never the password', async () => {
    const fake = fakeBackend({
      'POST /api/auth/token/': () =>
        json(400, {
          non_field_errors: ['Невозможно войти с предоставленными учетными данными.'],
        }),
    });
    const answer = await post('/login/', fake, {
      fields: { username: ' anna ', password: 'wrong' },
      cookies: { csrftoken: 'c' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: { username: 'anna' }, notice: WRONG_CREDENTIALS },
    });
  });

  it('a stall: «could not log in in time»', async () => {
    const fake = fakeBackend({ 'POST /api/auth/token/': () => 'stall' });
    const answer = await postPastBudget('/login/', fake, {
      fields: { username: 'anna', password: 'secret' },
      cookies: { csrftoken: 'c' },
    });
    expect(answer).toEqual({
      kind: 'page',
      outcome: { values: { username: 'anna' }, notice: LOGIN_LATE },
    });
  });

  it('logged in: on to next_page, with the token in its cookie', async () => {
    const fake = fakeBackend(signedIn('t0ken'));
    const answer = await post('/login/', fake, {
      fields: { username: 'anna', password: 'secret' },
      cookies: { csrftoken: 'c' },
      query: 'next_page=/order_status',
    });
    expect(answer).toEqual({
      kind: 'redirect',
      location: '/order_status',
      cookie: { cookie: COOKIES.token, value: 't0ken' },
    });
  });

  it.each(['//evil.example', '/.//evil.example', 'https://evil.example/', '/\\evil.example'])(
    'logged in with next_page=%s: home instead',
    async (nextPage) => {
      const fake = fakeBackend(signedIn('t0ken'));
      const answer = await post('/login/', fake, {
        fields: { username: 'anna', password: 'secret' },
        cookies: { csrftoken: 'c' },
        query: new URLSearchParams({ next_page: nextPage }).toString(),
      });
      expect(answer).toMatchObject({ kind: 'redirect', location: '/' });
    },
  );
});
