import { type Api, getter, http } from './http';
import type { Order, OrderCommit, OrderCommitResult } from './types';

export const commitOrder = (order: OrderCommit, api: Api = http) =>
  api<OrderCommitResult>('/catalog/order_commit', { method: 'POST', body: order });

export const getOrderHistory = getter<Order[]>('/catalog/order_history');
