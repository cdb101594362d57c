// The calls the shop's server makes itself, for a visitor (src/server-entry/backend-calls.ts): the
// basket and total of every page it renders, a catalogue page's load, the order history of
// /order_status, and the basket, checkout and login forms posted before the app's code arrived or
// without it. They are the browser's requests plus what the server adds: the visitor's Cookie,
// X-CSRFToken from the csrftoken cookie, Authorization from the token's cookie mirror,
// X-Forwarded-For/-Proto/-Host and a Referer naming the shop. The pact states those by shape, so a
// backend that refuses one of them, or needs a header the server does not send, fails here.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import type { BasketEntry } from '../../src/api/types';
import { exactNumber, orderBody, placedOrderBody, productBody } from '../support/bodies';
import { USER_TOKEN } from '../support/constants';
import { contract } from '../support/consumer';
import {
  DEMO_CREDENTIALS,
  ORDER,
  ORDER_COMMIT,
  RASPBERRY,
  SERVER_ATTEMPT_KEY,
} from '../support/examples';
import { STATES } from '../support/states';

const LINE: BasketEntry = { product: RASPBERRY, amount: 1.5 };
const holdsLine = {
  name: STATES.basketLine,
  params: { id: RASPBERRY.id, amount: LINE.amount },
} as const;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const MASKED_PHONE = /^\+7\(\d{3}\)-\d{3}-\d{2}-\d{2}$/;

const entryBody = (entry: BasketEntry) => ({
  product: productBody(entry.product),
  amount: M.number(entry.amount),
});
/** Every value a line like this one, every key a product id. */
const basketBody = {
  body: M.eachKeyLike(String(RASPBERRY.id), entryBody(LINE)),
  rules: {
    body: {
      path: '$',
      rules: [M.eachKeyMatches({}, M.regex(/^[0-9]+$/, String(RASPBERRY.id)))],
    },
  },
};

export function serverCallContracts(): void {
  describe("the shop's server, for a visitor", () => {
    contract({
      description:
        "GET /api/catalog/basket: the shop's server asks for a newcomer without cookies (the CSRF token's fetch)",
      given: [{ name: STATES.emptyBasket }],
      calls: 'getBasket',
      server: { newcomer: true },
      request: { method: 'GET', path: '/api/catalog/basket' },
      response: { status: 200, body: M.equal({}) },
      run: async ({ api, serverApi }) => {
        expect(await api.getBasket(serverApi)).toEqual({});
      },
    });

    contract({
      description:
        "GET /api/catalog/basket: the shop's server renders a page for a visitor with a session",
      given: [holdsLine],
      calls: 'getBasket',
      server: {},
      request: { method: 'GET', path: '/api/catalog/basket' },
      response: { status: 200, ...basketBody },
      run: async ({ api, serverApi }) => {
        const lines = await api.getBasket(serverApi);
        expect(lines[String(RASPBERRY.id)]?.amount).toBe(LINE.amount);
      },
    });

    contract({
      description:
        "GET /api/catalog/basket: the shop's server renders a page for a logged-in visitor (Authorization from the token's cookie)",
      given: [{ name: STATES.userToken, params: { token: USER_TOKEN, username: 'demo' } }],
      calls: 'getBasket',
      server: {},
      visitor: { token: USER_TOKEN },
      request: { method: 'GET', path: '/api/catalog/basket' },
      // The user's basket, whatever it holds: this pins the headers, the basket's answers above.
      response: { status: 200, body: {} },
      run: async ({ api, serverApi }) => {
        expect(await api.getBasket(serverApi)).toBeTypeOf('object');
      },
    });

    contract({
      description: "GET /api/catalog/total_price: the shop's server renders the basket's total",
      given: [holdsLine],
      calls: 'getTotalPrice',
      server: {},
      request: { method: 'GET', path: '/api/catalog/total_price' },
      response: { status: 200, body: M.number(1335) },
      run: async ({ api, serverApi }) => {
        expect(await api.getTotalPrice(serverApi)).toBe(1335);
      },
    });

    contract({
      description: "GET /api/catalog/product: the shop's server renders the home page",
      given: [{ name: STATES.homeProduct, params: { id: RASPBERRY.id } }],
      calls: 'getHomeProducts',
      server: {},
      request: { method: 'GET', path: '/api/catalog/product' },
      response: { status: 200, body: M.atLeastOneLike(productBody(RASPBERRY), 1) },
      run: async ({ api, serverApi }) => {
        const products = await api.getHomeProducts(serverApi);
        expect(products.map((product) => product.id)).toEqual([RASPBERRY.id]);
      },
    });

    contract({
      description: "GET /api/catalog/order_history: the shop's server renders /order_status",
      given: [{ name: STATES.orders, params: { n: 2 } }],
      calls: 'getOrderHistory',
      server: {},
      request: { method: 'GET', path: '/api/catalog/order_history' },
      response: { status: 200, body: M.atLeastOneLike(orderBody(ORDER), 2) },
      run: async ({ api, serverApi }) => {
        expect(await api.getOrderHistory(serverApi)).toEqual([ORDER, ORDER]);
      },
    });

    contract({
      description: `PUT /api/catalog/basket/${RASPBERRY.id}: the shop's server posts the basket form`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }],
      calls: 'updateBasketAmount',
      server: {},
      request: {
        method: 'PUT',
        path: `/api/catalog/basket/${RASPBERRY.id}`,
        body: { amount: LINE.amount },
      },
      response: {
        status: 200,
        body: { product: productBody(RASPBERRY), amount: LINE.amount },
        rules: { body: exactNumber('$.amount', LINE.amount) },
      },
      run: async ({ api, serverApi }) => {
        const line = await api.updateBasketAmount(RASPBERRY.id, LINE.amount, serverApi);
        expect(line.amount).toBe(LINE.amount);
      },
    });

    contract({
      description: `DELETE /api/catalog/basket/${RASPBERRY.id}: the shop's server posts the basket form`,
      given: [holdsLine],
      calls: 'deleteBasketLine',
      server: {},
      request: { method: 'DELETE', path: `/api/catalog/basket/${RASPBERRY.id}` },
      response: { status: 204 },
      run: async ({ api, serverApi }) => {
        await api.deleteBasketLine(RASPBERRY.id, serverApi);
      },
    });

    contract({
      description: "POST /api/catalog/order_commit: the shop's server posts the checkout form",
      given: [holdsLine],
      calls: 'commitOrder',
      server: {},
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: { 'Idempotency-Key': M.regex(UUID, SERVER_ATTEMPT_KEY) },
        body: { ...ORDER_COMMIT, phone: M.regex(MASKED_PHONE, ORDER_COMMIT.phone) },
      },
      response: { status: 201, body: placedOrderBody(ORDER) },
      run: async ({ api, serverApi }) => {
        const placed = await api.commitOrder(ORDER_COMMIT, SERVER_ATTEMPT_KEY, serverApi);
        expect(placed.items.map((item) => item.product.id)).toEqual([RASPBERRY.id]);
      },
    });

    contract({
      description: "POST /api/auth/token/: the shop's server posts the login form",
      given: [{ name: STATES.user, params: { ...DEMO_CREDENTIALS } }],
      calls: 'obtainToken',
      server: {},
      request: { method: 'POST', path: '/api/auth/token/', body: DEMO_CREDENTIALS },
      response: { status: 200, body: { token: M.string(USER_TOKEN) } },
      run: async ({ api, serverApi }) => {
        expect(await api.obtainToken(DEMO_CREDENTIALS, serverApi)).toEqual({
          token: USER_TOKEN,
        });
      },
    });
  });
}
