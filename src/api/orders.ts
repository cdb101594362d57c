import { type Api, getter, http } from './http';
import type { Order, OrderCommit, OrderCommitResult } from './types';

/**
 * Places the order. `attemptKey` names the checkout attempt (features/checkout/order-attempt.ts):
 * the backend places one order per key and answers a repeat with the first answer.
 */
export const commitOrder = (order: OrderCommit, attemptKey: string, api: Api = http) =>
  api<OrderCommitResult>('/catalog/order_commit', {
    method: 'POST',
    body: order,
    headers: { 'Idempotency-Key': attemptKey },
  });

export const getOrderHistory = getter<Order[]>('/catalog/order_history');
