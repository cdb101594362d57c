// Placing an order from the basket and the visitor's order history.
import express, { type Request, type Response, type Router } from 'express';
import type { Order, OrderCommitResult } from '../../src/api/types.ts';
import { orderableLines, setLine } from '../baskets.ts';
import { nowIso } from '../clock.ts';
import type { StubContext } from '../context.ts';
import type { StoredOrder, StubData } from '../db.ts';
import { badRequest, defineRoute, HttpError } from '../http.ts';
import { lineTotal, round2 } from '../numbers.ts';
import { ATTEMPT_KEY_MAX, ORDER_IN_FLIGHT } from '../order-attempts.ts';
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

export const INVALID_ATTEMPT_KEY = `Idempotency-Key: от 1 до ${ATTEMPT_KEY_MAX} символов.`;

export function orderRoutes({ store, attempts }: StubContext): Router {
  const router = express.Router();

  /** Places the order of the request: its answer, or an HttpError for a refused one. */
  const place = async (req: Request, res: Response) => {
    const fields = validateCommit(req.body);
    const data = store.data;
    const visitor = visitorOf(req);
    const order = placeOrder(data, visitor.owner, fields);
    touchSession(data, visitor, res);
    const placed = toOrder(order);
    await store.save();
    return { status: 201, body: placed satisfies OrderCommitResult };
  };

  defineRoute(router, '/catalog/order_commit', {
    post: async (req, res) => {
      const key = req.get('Idempotency-Key');
      if (key === undefined) {
        const answer = await place(req, res);
        res.status(answer.status).json(answer.body);
        return;
      }
      if (key.length === 0 || key.length > ATTEMPT_KEY_MAX) {
        throw new HttpError(400, { detail: INVALID_ATTEMPT_KEY });
      }
      // The visitor as the request names them: a newcomer's first request has no session yet,
      // and no repeat can share it.
      const { owner } = visitorOf(req);
      const claim = attempts.claim(owner, key);
      if (claim.kind === 'in-flight') throw new HttpError(409, { detail: ORDER_IN_FLIGHT });
      if (claim.kind === 'repeat') {
        res.status(claim.answer.status).json(claim.answer.body);
        return;
      }
      let answer;
      try {
        answer = await place(req, res);
      } catch (error) {
        // A refused order is an answer like any other; a failure of the stub's own is not kept.
        if (error instanceof HttpError && error.status < 500) {
          attempts.finish(owner, key, { status: error.status, body: error.body });
        } else attempts.release(owner, key);
        throw error;
      }
      attempts.finish(owner, key, answer);
      res.status(answer.status).json(answer.body);
    },
  });
  defineRoute(router, '/catalog/order_history', {
    get: (req, res) => {
      res.json(ordersOf(store.data, visitorOf(req).owner).map(toOrder) satisfies Order[]);
    },
  });
  return router;
}
