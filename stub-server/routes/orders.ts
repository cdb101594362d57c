// Placing an order from the basket and the visitor's order history.
import express, { type Router } from 'express';
import type { Order, OrderCommitResult } from '../../src/api/types.ts';
import { orderableLines, setLine } from '../baskets.ts';
import { nowIso } from '../clock.ts';
import type { StubContext } from '../context.ts';
import type { StoredOrder, StubData } from '../db.ts';
import { badRequest, defineRoute } from '../http.ts';
import { lineTotal, round2 } from '../numbers.ts';
import { toOrder } from '../serializers.ts';
import { touchSession, visitorOf } from '../session.ts';
import { type CommitFields, EMPTY_BASKET, validateCommit } from '../validation.ts';

/** Turns the owner's orderable lines into a new order and removes them from the basket. */
export function placeOrder(data: StubData, owner: string, fields: CommitFields): StoredOrder {
  const lines = orderableLines(data, owner);
  if (lines.length === 0) throw badRequest({ non_field_errors: [EMPTY_BASKET] });
  const items = lines.map(([product, amount]) => {
    data.counters.order_item += 1;
    return {
      id: data.counters.order_item,
      amount,
      price: product.price ?? 0,
      product: { id: product.id, name: product.name, unit: product.unit },
    };
  });
  data.counters.order += 1;
  const order: StoredOrder = {
    id: data.counters.order,
    created_ts: nowIso(),
    status: 0,
    order_sum: round2(items.reduce((sum, item) => sum + lineTotal(item.amount, item.price), 0)),
    items,
    owner,
    ...fields,
  };
  data.orders.push(order);
  for (const [product] of lines) setLine(data, owner, product.id, 0);
  return order;
}

/** Newest first. */
export function ordersOf(data: StubData, owner: string): StoredOrder[] {
  return data.orders
    .filter((order) => order.owner === owner)
    .sort((a, b) => Date.parse(b.created_ts) - Date.parse(a.created_ts) || b.id - a.id);
}

export function orderRoutes({ store }: StubContext): Router {
  const router = express.Router();

  defineRoute(router, '/catalog/order_commit', {
    post: async (req, res) => {
      const fields = validateCommit(req.body);
      const data = store.data;
      const visitor = visitorOf(req);
      const order = placeOrder(data, visitor.owner, fields);
      touchSession(data, visitor, res);
      const placed = toOrder(order);
      await store.save();
      res.status(201).json(placed satisfies OrderCommitResult);
    },
  });
  defineRoute(router, '/catalog/order_history', {
    get: (req, res) => {
      res.json(ordersOf(store.data, visitorOf(req).owner).map(toOrder) satisfies Order[]);
    },
  });
  return router;
}
