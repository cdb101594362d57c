// Order calls (src/api/orders.ts): placing an order from the basket, the 400 for a bad phone, and
// the visitor's order history, empty or not.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import type { OrderCommit } from '../../src/api/types';
import { fieldErrorsBody, orderBody, placedOrderBody } from '../support/bodies';
import { contract } from '../support/consumer';
import { failureFields } from '../support/errors';
import {
  ATTEMPT_KEY,
  BAD_PHONE,
  ORDER,
  ORDER_COMMIT,
  OTHER_ATTEMPT_KEY,
  RASPBERRY,
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
