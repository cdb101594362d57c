// Order calls (src/api/orders.ts): placing an order from the basket, the 400 for a bad phone, and
// the visitor's order history, empty or not.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import type { OrderCommit } from '../../src/api/types';
import { fieldErrorsBody, orderBody, placedOrderBody } from '../support/bodies';
import { contract } from '../support/consumer';
import { failureFields } from '../support/errors';
import { BAD_PHONE, ORDER, ORDER_COMMIT, RASPBERRY } from '../support/examples';
import { STATES } from '../support/states';

/** The checkout's phone mask, +7(###)-###-##-##: what the app sends. */
const MASKED_PHONE = /^\+7\(\d{3}\)-\d{3}-\d{2}-\d{2}$/;

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
        body: commitBody(ORDER_COMMIT),
      },
      // 200 or 201 with the created order; the basket reads which products it took.
      response: { status: 201, body: placedOrderBody(ORDER) },
      run: async ({ api }) => {
        const placed = await api.commitOrder(ORDER_COMMIT);
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
        body: commitBody({ ...ORDER_COMMIT, phone: BAD_PHONE }),
      },
      response: { status: 400, body: fieldErrorsBody('phone', 'Некорректный номер') },
      run: async ({ api }) => {
        // The checkout form puts `phone` messages under the phone field.
        const errors = await failureFields(api.commitOrder({ ...ORDER_COMMIT, phone: BAD_PHONE }));
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
