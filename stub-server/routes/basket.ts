// The visitor's basket: list, set an amount, remove a line, total.
import express, { type Router } from 'express';
import type { AmountSum, Basket, BasketEntry } from '../../src/api/types.ts';
import { basketOf, basketTotal, setLine } from '../baskets.ts';
import type { StubContext } from '../context.ts';
import { defineRoute, pathId } from '../http.ts';
import { productOr404, toBasketEntry } from '../serializers.ts';
import { touchSession, visitorOf } from '../session.ts';
import { validateAmount } from '../validation.ts';

export function basketRoutes({ store }: StubContext): Router {
  const router = express.Router();

  defineRoute(router, '/catalog/basket', {
    get: (req, res) => {
      res.json(basketOf(store.data, visitorOf(req).owner) satisfies Basket);
    },
  });
  defineRoute(router, '/catalog/basket/:id(\\d+)', {
    put: async (req, res) => {
      const data = store.data;
      const product = productOr404(data, pathId(req));
      const amount = validateAmount(product, req.body);
      const visitor = visitorOf(req);
      setLine(data, visitor.owner, product.id, amount);
      touchSession(data, visitor, res);
      const entry = toBasketEntry(product, amount);
      await store.save();
      res.json(entry satisfies BasketEntry);
    },
    delete: async (req, res) => {
      const data = store.data;
      const product = productOr404(data, pathId(req));
      setLine(data, visitorOf(req).owner, product.id, 0);
      await store.save();
      res.status(204).end();
    },
  });
  defineRoute(router, '/catalog/total_price', {
    get: (req, res) => {
      res.json(basketTotal(store.data, visitorOf(req).owner) satisfies AmountSum);
    },
  });
  return router;
}
