// Basket calls (src/api/basket.ts): the basket keyed by product id, setting and removing a line,
// the total; plus the answers the app handles on the way: 400 over the limit, 403 without the
// anti-forgery header, 401 for a revoked token.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import { getToken } from '../../src/api/token';
import type { Basket, BasketEntry } from '../../src/api/types';
import { exactNumber, fieldErrorsBody, productBody } from '../support/bodies';
import { REVOKED_TOKEN } from '../support/constants';
import { contract } from '../support/consumer';
import { failureFields, failureStatus } from '../support/errors';
import { RASPBERRY } from '../support/examples';
import { STATES } from '../support/states';

const LINE: BasketEntry = { product: RASPBERRY, amount: 1.5 };
const BASKET: Basket = { [String(RASPBERRY.id)]: LINE };
const holdsLine = {
  name: STATES.basketLine,
  params: { id: RASPBERRY.id, amount: LINE.amount },
} as const;
/** Raspberries go by 0.1 кг: an amount an integer field would refuse or round. */
const FRACTION = 1.5;
/** Spec §9: at most 10 of a product, or its stock when lower. */
const OVER_LIMIT = 11;

const entryBody = (entry: BasketEntry) => ({
  product: productBody(entry.product),
  amount: M.number(entry.amount),
});

export function basketContracts(): void {
  describe('basket', () => {
    contract({
      description: 'GET /api/catalog/basket: an empty basket',
      given: [{ name: STATES.emptyBasket }],
      calls: 'getBasket',
      request: { method: 'GET', path: '/api/catalog/basket' },
      // `{}` alone would accept any object; equality pins "nothing in it".
      response: { status: 200, body: M.equal({}) },
      run: async ({ api }) => {
        expect(await api.getBasket()).toEqual({});
      },
    });

    contract({
      description: 'GET /api/catalog/basket: a basket with a line, keyed by product id',
      given: [holdsLine],
      calls: 'getBasket',
      request: { method: 'GET', path: '/api/catalog/basket' },
      response: {
        status: 200,
        // Every value is a line like this one, and every key a product id.
        body: M.eachKeyLike(String(RASPBERRY.id), entryBody(LINE)),
        rules: {
          body: {
            path: '$',
            rules: [M.eachKeyMatches({}, M.regex(/^[0-9]+$/, String(RASPBERRY.id)))],
          },
        },
      },
      run: async ({ api }) => {
        expect(await api.getBasket()).toEqual(BASKET);
      },
    });

    contract({
      description: 'GET /api/catalog/basket: a revoked token (401)',
      given: [{ name: STATES.revokedToken, params: { token: REVOKED_TOKEN } }],
      calls: 'getBasket',
      visitor: { token: REVOKED_TOKEN },
      request: { method: 'GET', path: '/api/catalog/basket' },
      // The status is what the app acts on; DRF's `{detail}` body is not read.
      response: { status: 401 },
      run: async ({ api, unauthorizedCalls }) => {
        expect(await failureStatus(api.getBasket())).toBe(401);
        // Spec §6: any 401 logs the visitor out and sends them to the login page.
        expect(getToken()).toBeNull();
        expect(unauthorizedCalls()).toBe(1);
      },
    });

    contract({
      description: `PUT /api/catalog/basket/${RASPBERRY.id}: set the amount of a product`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }, { name: STATES.emptyBasket }],
      calls: 'updateBasketAmount',
      request: {
        method: 'PUT',
        path: `/api/catalog/basket/${RASPBERRY.id}`,
        body: { amount: 2 },
      },
      response: { status: 200, body: entryBody({ product: RASPBERRY, amount: 2 }) },
      run: async ({ api }) => {
        expect(await api.updateBasketAmount(RASPBERRY.id, 2)).toEqual({
          product: RASPBERRY,
          amount: 2,
        });
      },
    });

    contract({
      description: `PUT /api/catalog/basket/${RASPBERRY.id}: a fractional amount of a product sold by weight`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }, { name: STATES.emptyBasket }],
      calls: 'updateBasketAmount',
      request: {
        method: 'PUT',
        path: `/api/catalog/basket/${RASPBERRY.id}`,
        body: { amount: FRACTION },
      },
      // The line shows the answered amount: 1.5, not an integer field's 1 or 2.
      response: {
        status: 200,
        body: { product: productBody(RASPBERRY), amount: FRACTION },
        rules: { body: exactNumber('$.amount', FRACTION) },
      },
      run: async ({ api }) => {
        expect(await api.updateBasketAmount(RASPBERRY.id, FRACTION)).toEqual({
          product: RASPBERRY,
          amount: FRACTION,
        });
      },
    });

    contract({
      description: `PUT /api/catalog/basket/${RASPBERRY.id}: amount 0 removes the line`,
      given: [holdsLine],
      calls: 'updateBasketAmount',
      request: {
        method: 'PUT',
        path: `/api/catalog/basket/${RASPBERRY.id}`,
        body: { amount: 0 },
      },
      // Typing 0 sends 0; the basket store drops the line only when the answered amount is 0.
      response: {
        status: 200,
        body: { product: productBody(RASPBERRY), amount: 0 },
        rules: { body: exactNumber('$.amount', 0) },
      },
      run: async ({ api }) => {
        expect(await api.updateBasketAmount(RASPBERRY.id, 0)).toEqual({
          product: RASPBERRY,
          amount: 0,
        });
      },
    });

    contract({
      description: `PUT /api/catalog/basket/${RASPBERRY.id}: an amount over the limit (400)`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }],
      calls: 'updateBasketAmount',
      request: {
        method: 'PUT',
        path: `/api/catalog/basket/${RASPBERRY.id}`,
        body: { amount: OVER_LIMIT },
      },
      response: {
        status: 400,
        body: fieldErrorsBody('amount', 'Убедитесь, что значение меньше или равно 10.'),
      },
      run: async ({ api }) => {
        // The basket store shows the first `amount` message to the shopper.
        const errors = await failureFields(api.updateBasketAmount(RASPBERRY.id, OVER_LIMIT));
        expect(errors.amount?.[0]).toEqual(expect.any(String));
      },
    });

    contract({
      description: `PUT /api/catalog/basket/${RASPBERRY.id}: no anti-forgery header (403)`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }],
      calls: 'updateBasketAmount',
      visitor: { csrfToken: null },
      request: {
        method: 'PUT',
        path: `/api/catalog/basket/${RASPBERRY.id}`,
        body: { amount: 1 },
      },
      // Any body: DRF's `{detail}` or Django's HTML page of a failed CSRF check.
      response: { status: 403 },
      run: async ({ api }) => {
        expect(await failureStatus(api.updateBasketAmount(RASPBERRY.id, 1))).toBe(403);
      },
    });

    contract({
      description: `DELETE /api/catalog/basket/${RASPBERRY.id}: remove a line`,
      given: [holdsLine],
      calls: 'deleteBasketLine',
      request: { method: 'DELETE', path: `/api/catalog/basket/${RASPBERRY.id}` },
      response: { status: 204 },
      run: async ({ api }) => {
        await expect(api.deleteBasketLine(RASPBERRY.id)).resolves.toBeUndefined();
      },
    });

    contract({
      description: 'GET /api/catalog/total_price: the basket total',
      given: [holdsLine],
      calls: 'getTotalPrice',
      request: { method: 'GET', path: '/api/catalog/total_price' },
      response: { status: 200, body: M.number(1335) },
      run: async ({ api }) => {
        expect(await api.getTotalPrice()).toBe(1335);
      },
    });
  });
}
