// Order calls (src/api/orders.ts): placing an order from the basket, the 400 for a bad phone, and
// the visitor's order history, empty or not.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import type { OrderCommit } from '../../src/api/types';
import { fieldErrorsBody, orderBody, placedOrderBody } from '../support/bodies';
import { contract } from '../support/consumer';
import { failure, failureFields } from '../support/errors';
import { errorStatus } from '../../src/api/http';
import {
  ATTEMPT_KEY,
  BAD_PHONE,
  IN_FLIGHT_ATTEMPT_KEY,
  ORDER,
  ORDER_COMMIT,
  OTHER_ATTEMPT_KEY,
  PLACED_ATTEMPT_KEY,
  RASPBERRY,
  REFUSED_ATTEMPT_KEY,
  SHARED_ATTEMPT_KEY,
} from '../support/examples';
import { STATES } from '../support/states';

/** The checkout's phone mask, +7(###)-###-##-##: what the app sends. */
const MASKED_PHONE = /^\+7\(\d{3}\)-\d{3}-\d{2}-\d{2}$/;

/** A checkout attempt's key: a random UUID (features/checkout/order-attempt.ts). */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** One order per key and visitor: a repeat gets the first answer (contracts/README.md). */
const attemptHeaders = (key: string) => ({ 'Idempotency-Key': M.regex(UUID, key) });

const commitBody = (order: OrderCommit) => ({
  ...order,
  phone: M.regex(MASKED_PHONE, order.phone),
});

const holdsLine = {
  name: STATES.basketLine,
  params: { id: RASPBERRY.id, amount: 1.5 },
} as const;

/** A sentence with Russian words in it: what the shop could show. */
const RUSSIAN_TEXT = /^.*[А-Яа-яЁё].*$/;

export function orderContracts(): void {
  describe('orders', () => {
    contract({
      description: 'POST /api/catalog/order_commit: place an order',
      given: [holdsLine],
      calls: 'commitOrder',
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: attemptHeaders(ATTEMPT_KEY),
        body: commitBody(ORDER_COMMIT),
      },
      // 200 or 201 with the created order; the basket reads which products it took.
      response: { status: 201, body: placedOrderBody(ORDER) },
      run: async ({ api }) => {
        const placed = await api.commitOrder(ORDER_COMMIT, ATTEMPT_KEY);
        expect(placed.items.map((item) => item.product.id)).toEqual([RASPBERRY.id]);
      },
    });

    contract({
      description: 'POST /api/catalog/order_commit: an invalid phone (400)',
      given: [holdsLine],
      calls: 'commitOrder',
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: attemptHeaders(OTHER_ATTEMPT_KEY),
        body: commitBody({ ...ORDER_COMMIT, phone: BAD_PHONE }),
      },
      response: { status: 400, body: fieldErrorsBody('phone', 'Некорректный номер') },
      run: async ({ api }) => {
        // The checkout form puts `phone` messages under the phone field.
        const errors = await failureFields(
          api.commitOrder({ ...ORDER_COMMIT, phone: BAD_PHONE }, OTHER_ATTEMPT_KEY),
        );
        expect(errors.phone).toEqual(['Некорректный номер']);
      },
    });

    // One order per checkout (contracts/README.md, "One order per checkout"): each repeat below
    // is answered differently by a backend that ignores Idempotency-Key, or keys it per shop
    // instead of per visitor, and its description names the key so the verifier's failure does.
    contract({
      description:
        'POST /api/catalog/order_commit: Idempotency-Key of a placed order again, the basket now empty: the same order (201)',
      given: [
        { name: STATES.placedAttempt, params: { key: PLACED_ATTEMPT_KEY, id: RASPBERRY.id } },
      ],
      calls: 'commitOrder',
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: attemptHeaders(PLACED_ATTEMPT_KEY),
        body: commitBody(ORDER_COMMIT),
      },
      // The first answer, not «the basket is empty»: the checkout shows its order placed.
      response: { status: 201, body: placedOrderBody(ORDER) },
      run: async ({ api }) => {
        const placed = await api.commitOrder(ORDER_COMMIT, PLACED_ATTEMPT_KEY);
        expect(placed.items.map((item) => item.product.id)).toEqual([RASPBERRY.id]);
      },
    });

    contract({
      description:
        'POST /api/catalog/order_commit: Idempotency-Key of an order still being placed: wait (409)',
      given: [holdsLine, { name: STATES.attemptInFlight, params: { key: IN_FLIGHT_ATTEMPT_KEY } }],
      calls: 'commitOrder',
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: attemptHeaders(IN_FLIGHT_ATTEMPT_KEY),
        body: commitBody(ORDER_COMMIT),
      },
      // Not a second order of the same basket: the shop waits and asks again.
      response: {
        status: 409,
        body: { detail: M.regex(RUSSIAN_TEXT, 'Заказ с этим ключом ещё оформляется.') },
      },
      run: async ({ api }) => {
        const error = await failure(api.commitOrder(ORDER_COMMIT, IN_FLIGHT_ATTEMPT_KEY));
        expect(errorStatus(error)).toBe(409);
      },
    });

    contract({
      description:
        'POST /api/catalog/order_commit: Idempotency-Key of a refused order again: the same 400, even with the phone now right',
      given: [holdsLine, { name: STATES.refusedAttempt, params: { key: REFUSED_ATTEMPT_KEY } }],
      calls: 'commitOrder',
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: attemptHeaders(REFUSED_ATTEMPT_KEY),
        body: commitBody(ORDER_COMMIT),
      },
      response: { status: 400, body: fieldErrorsBody('phone', 'Некорректный номер') },
      run: async ({ api }) => {
        const errors = await failureFields(api.commitOrder(ORDER_COMMIT, REFUSED_ATTEMPT_KEY));
        expect(errors.phone).toEqual(['Некорректный номер']);
      },
    });

    contract({
      description:
        "POST /api/catalog/order_commit: Idempotency-Key another visitor used, this basket empty: this visitor's own 400, not their order",
      given: [
        { name: STATES.otherVisitorAttempt, params: { key: SHARED_ATTEMPT_KEY, id: RASPBERRY.id } },
        { name: STATES.emptyBasket },
      ],
      calls: 'commitOrder',
      request: {
        method: 'POST',
        path: '/api/catalog/order_commit',
        headers: attemptHeaders(SHARED_ATTEMPT_KEY),
        body: commitBody(ORDER_COMMIT),
      },
      response: { status: 400 },
      run: async ({ api }) => {
        const error = await failure(api.commitOrder(ORDER_COMMIT, SHARED_ATTEMPT_KEY));
        expect(errorStatus(error)).toBe(400);
      },
    });

    contract({
      description: 'GET /api/catalog/order_history: the visitor has orders',
      given: [{ name: STATES.orders, params: { n: 2 } }],
      calls: 'getOrderHistory',
      request: { method: 'GET', path: '/api/catalog/order_history' },
      response: { status: 200, body: M.atLeastOneLike(orderBody(ORDER), 2) },
      run: async ({ api }) => {
        expect(await api.getOrderHistory()).toEqual([ORDER, ORDER]);
      },
    });

    contract({
      description: 'GET /api/catalog/order_history: no orders yet',
      given: [{ name: STATES.orders, params: { n: 0 } }],
      calls: 'getOrderHistory',
      request: { method: 'GET', path: '/api/catalog/order_history' },
      response: { status: 200, body: [] },
      run: async ({ api }) => {
        expect(await api.getOrderHistory()).toEqual([]);
      },
    });
  });
}
