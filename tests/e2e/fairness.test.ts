// Fair use of the backend (issue 39): one address floods the shop with uncached searches, 150 at
// a time, against a backend whose searches never end (the worst a flood can find), while another
// shopper changes the basket and checks out, as the app and as forms posted without JavaScript.
// Every step of the shopper's succeeds: straight at an instance (its share of the backend's
// connections alone, host/backend/backend-share.ts), and through the recipe (nginx's rate limits
// too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFlood, shopperVisit } from './fairness.ts';
import {
  type FaultBackend,
  type HoldingBackend,
  holdingBackend,
  stubBackend,
} from './fault-backends.ts';
import { type RecipeInFront, startRecipeInFront } from './nginx-recipe.ts';

const AT_ONCE = 150;

let stub: FaultBackend;
let backend: HoldingBackend;
let recipe: RecipeInFront;

beforeAll(async () => {
  stub = await stubBackend();
  backend = await holdingBackend(stub.url, (req) => /_search\b/.test(req.url ?? ''));
  // The flood's pages wait for their searches until this deadline, then render: a longer one
  // than the default makes fewer of them, which a shared CI machine feels less.
  recipe = await startRecipeInFront(backend.url, { SSR_DATA_TIMEOUT_MS: '4000' });
});

afterAll(async () => {
  await recipe?.close();
  await backend?.close();
  await stub?.close();
});

describe('one address flooding uncached searches', () => {
  it('straight at an instance: another shopper’s basket changes and checkouts all succeed', async () => {
    const shop = recipe.shops[0].url;
    // The instance trusts nginx's X-Forwarded-For from loopback: two visitors' addresses.
    const flood = await searchFlood(shop, AT_ONCE, {
      headers: { 'x-forwarded-for': '203.0.113.66' },
    });
    try {
      // The flood holds what it can of the backend's connections before the shopper comes.
      await expect.poll(() => backend.held()).toBeGreaterThanOrEqual(16);
      const steps = await shopperVisit(shop, { 'x-forwarded-for': '198.51.100.7' });
      expect(steps.filter((step) => !step.ok)).toEqual([]);
      expect(steps).toHaveLength(8);
    } finally {
      await flood.stop();
    }
  });

  it('through the recipe: another shopper’s all succeed, and nginx turns most of the flood away', async () => {
    const front = recipe.url;
    const flood = await searchFlood(front, AT_ONCE, { localAddress: '127.0.0.2' });
    try {
      await expect.poll(() => backend.held()).toBeGreaterThanOrEqual(16);
      const steps = await shopperVisit(front);
      expect(steps.filter((step) => !step.ok)).toEqual([]);
      expect(steps).toHaveLength(8);
      // nginx's limit_req (docs/deploy.md, fair use): past its burst the flood's searches are 429s.
      await expect.poll(() => flood.statuses.get(429) ?? 0).toBeGreaterThan(0);
    } finally {
      await flood.stop();
    }
  });
});
