import { http } from './http';
import type { Order, OrderCommit, OrderCommitResult } from './types';

export const commitOrder = (order: OrderCommit) =>
  http<OrderCommitResult>('/catalog/order_commit', { method: 'POST', body: order });

export const getOrderHistory = () => http<Order[]>('/catalog/order_history');
