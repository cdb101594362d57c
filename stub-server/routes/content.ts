// Content calls: the policy link, the home carousel and the news channel posts.
import express, { type Router } from 'express';
import type { CarouselSlide, NewsItem, Policy } from '../../src/api/types.ts';
import type { StubContext } from '../context.ts';
import { defineRoute } from '../http.ts';

export function contentRoutes({ store }: StubContext): Router {
  const router = express.Router();
  defineRoute(router, '/content/policy', {
    get: (_req, res) => {
      res.json(store.data.policy satisfies Policy);
    },
  });
  defineRoute(router, '/content/carousel', {
    get: (_req, res) => {
      res.json(store.data.slides satisfies CarouselSlide[]);
    },
  });
  defineRoute(router, '/telegram/news', {
    get: (_req, res) => {
      res.json(store.data.news satisfies NewsItem[]);
    },
  });
  return router;
}
