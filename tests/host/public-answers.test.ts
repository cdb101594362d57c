// The public answers the server keeps (src/server-entry/public-answers.ts): a fresh one saves the
// backend a call, an older one stands in while the backend fails or stalls, and nothing else is
// covered up or kept. Each view loads through its own request's calls to a fake backend, as a
// page does; time is a fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product, Selection } from '../../src/api/types';
import {
  homeProductsQuery,
  productQuery,
  selectionQuery,
} from '../../src/features/catalog/queries';
import { orderHistoryQuery } from '../../src/features/orders/queries';
import { backendCalls } from '../../src/server-entry/backend-calls';
import { changedShown, NO_CHANGE } from '../../src/server-entry/changes';
import { PublicAnswers, type PublicAnswersOptions } from '../../src/server-entry/public-answers';
import type { Query } from '../../src/ui/page-data';
import { answer, json, type Reply } from './fake-replies';

const FRESH_MS = 10_000;
const STALE_MS = 60 * 60_000;
/** A page's data budget (SSR_DATA_TIMEOUT_MS). */
const PAGE_BUDGET_MS = 1_500;

/**
 * lru-cache times its entries by the `performance` it found when it was imported (its default
 * `perf`). Fake timers put a fake `performance` on globalThis and leave that object as it is, so
 * its `now` is made to follow the fake clock here.
 */
const processClock = globalThis.performance;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-06-01T09:00:00Z') });
  vi.spyOn(processClock, 'now').mockImplementation(() => Date.now());
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A backend whose answers the test sets, by `/api/path`, and which counts what it is asked. */
function fakeBackend() {
  const routes = new Map<string, () => Reply>();
  const asked: string[] = [];
  let stalled = () => {};
  /** Resolves once a call is being held (a stall has begun). */
  const held = new Promise<void>((resolve) => {
    stalled = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const path = new URL(new Request(input, init).url).pathname;
    asked.push(path);
    const reply = routes.get(path)?.() ?? json(404, { detail: 'Страница не найдена.' });
    return answer(reply, init, stalled);
  };
  return {
    backend: { baseURL: 'http://backend.test/api', fetch },
    asked,
    /** From now on, `path` answers so. */
    answer(path: string, reply: () => Reply) {
      routes.set(path, reply);
    },
    held,
  };
}

type FakeBackend = ReturnType<typeof fakeBackend>;

function setUp(options: Partial<PublicAnswersOptions> = {}) {
  const fake = fakeBackend();
  const answers = new PublicAnswers({
    freshMs: FRESH_MS,
    staleMs: STALE_MS,
    maxEntries: 100,
    ...options,
  });
  /** One page view's load of `query`, through its own request's calls, ended after. */
  const load = async <T>(query: Query<T>, freshSince?: number) => {
    const calls = backendCalls(
      fake.backend,
      { cookies: {}, forwardedFor: '203.0.113.7', proto: 'https', host: 'shop.example' },
      PAGE_BUDGET_MS,
    );
    try {
      return await answers.load(query, calls.api, freshSince);
    } finally {
      calls.end();
    }
  };
  const view = async <T>(query: Query<T>): Promise<T> => (await load(query)).value;
  return { fake, view, load, answers };
}

const product = (id: number, name: string): Product => ({
  id,
  name,
  image: null,
  unit: 'кг',
  unit_step: null,
  price: 600,
  rest: 8,
  available: true,
});
const HOME = '/api/catalog/product';
const before = [product(7, 'Малина')];
const after = [product(7, 'Малина'), product(8, 'Клубника')];

/** The backend failing as it may: not there, its own fault, or no answer within a page's budget. */
const failures: [string, Reply, (fake: FakeBackend) => Promise<void>][] = [
  ['a network error', 'down', async () => {}],
  ['a 500', json(500, { detail: 'Server Error' }), async () => {}],
  [
    'no answer within the page’s budget',
    'stall',
    async (fake) => {
      await fake.held;
      await vi.advanceTimersByTimeAsync(PAGE_BUDGET_MS);
    },
  ],
];

describe('public answers', () => {
  it('a fresh answer is served without asking the backend again; after freshMs it is asked again', async () => {
    const { fake, view } = setUp();
    fake.answer(HOME, () => json(200, before));
    expect(await view(homeProductsQuery)).toEqual(before);
    fake.answer(HOME, () => json(200, after));
    vi.advanceTimersByTime(FRESH_MS - 1);
    expect(await view(homeProductsQuery)).toEqual(before);
    expect(fake.asked).toEqual([HOME]);
    vi.advanceTimersByTime(1);
    expect(await view(homeProductsQuery)).toEqual(after);
    expect(fake.asked).toEqual([HOME, HOME]);
  });

  it.each(failures)(
    '%s within the stale window: the last good answer is served',
    async (_, reply, waitForIt) => {
      const { fake, view } = setUp();
      fake.answer(HOME, () => json(200, before));
      await view(homeProductsQuery);
      vi.advanceTimersByTime(FRESH_MS);
      fake.answer(HOME, () => json(200, after));
      await view(homeProductsQuery);
      vi.advanceTimersByTime(STALE_MS - 1);
      fake.answer(HOME, () => reply);
      const served = view(homeProductsQuery);
      await waitForIt(fake);
      expect(await served).toEqual(after);
      expect(fake.asked).toEqual([HOME, HOME, HOME]);
    },
  );

  it.each(failures)(
    '%s after the stale window: the failure comes through',
    async (_, reply, waitForIt) => {
      const { fake, view } = setUp();
      fake.answer(HOME, () => json(200, before));
      await view(homeProductsQuery);
      vi.advanceTimersByTime(STALE_MS + 1);
      fake.answer(HOME, () => reply);
      const served = view(homeProductsQuery);
      // Caught at once: the stall's failure comes only once the clock has moved on.
      const failure = served.catch((error: unknown) => error);
      await waitForIt(fake);
      expect(await failure).toBeInstanceOf(Error);
    },
  );

  it('a product the backend says is gone (404) is never covered by its old answer', async () => {
    const { fake, view } = setUp();
    const raspberry = product(7, 'Малина');
    fake.answer('/api/catalog/product_retrieve/7', () => json(200, raspberry));
    fake.answer('/api/catalog/product_breadcrumbs/7', () => json(200, [{ id: 1, name: 'Ягоды' }]));
    expect((await view(productQuery(7)))[0]).toEqual(raspberry);
    vi.advanceTimersByTime(FRESH_MS);
    fake.answer('/api/catalog/product_retrieve/7', () => json(404, { detail: 'Не найдено.' }));
    await expect(view(productQuery(7))).rejects.toMatchObject({ statusCode: 404 });
  });

  it("a visitor's own data is never kept: asked each time, never stood in for", async () => {
    const { fake, view } = setUp();
    const ORDERS = '/api/catalog/order_history';
    fake.answer(ORDERS, () => json(200, []));
    await view(orderHistoryQuery);
    await view(orderHistoryQuery);
    expect(fake.asked).toEqual([ORDERS, ORDERS]);
    fake.answer(ORDERS, () => 'down');
    await expect(view(orderHistoryQuery)).rejects.toThrow();
  });

  it('at most maxEntries answers are kept: the least recently used goes first', async () => {
    const { fake, view } = setUp({ maxEntries: 2 });
    const selection = (id: number): Selection => ({
      id,
      name: `Подборка ${id}`,
      description: '',
      sections: [],
      products: [],
    });
    for (const id of [1, 2, 3]) {
      fake.answer(`/api/catalog/selection_retrieve/${id}`, () => json(200, selection(id)));
    }
    for (const id of [1, 2, 3]) await view(selectionQuery(id));
    fake.asked.length = 0;
    // Still fresh, and kept: 2 and 3. 1 was pushed out by 3, and is asked for again.
    for (const id of [3, 2, 1]) expect(await view(selectionQuery(id))).toEqual(selection(id));
    expect(fake.asked).toEqual(['/api/catalog/selection_retrieve/1']);
  });
});

describe('a change the backend tells of (the change hook)', () => {
  const RASPBERRY = '/api/catalog/product_retrieve/7';
  const setUpProduct = () => {
    const setup = setUp();
    setup.fake.answer(RASPBERRY, () => json(200, product(7, 'Малина')));
    setup.fake.answer('/api/catalog/product_breadcrumbs/7', () =>
      json(200, [{ id: 1, name: 'Ягоды' }]),
    );
    setup.fake.answer(HOME, () => json(200, before));
    return setup;
  };

  it('outdates the answers that show what changed: asked again at once, the others stay fresh', async () => {
    const { fake, view, answers } = setUpProduct();
    await view(productQuery(7));
    await view(homeProductsQuery);
    await view(selectionQuery(3)).catch(() => {});
    fake.asked.length = 0;
    // Product 7 changed: its page's answer, and the home page's list (it may have joined it).
    expect(answers.outdate(changedShown({ ...NO_CHANGE, products: [7] }))).toBe(2);
    fake.answer(RASPBERRY, () => json(200, { ...product(7, 'Малина'), price: 650 }));
    expect((await view(productQuery(7)))[0].price).toBe(650);
    await view(homeProductsQuery);
    expect(fake.asked).toEqual([RASPBERRY, '/api/catalog/product_breadcrumbs/7', HOME]);
    // Asked once: fresh again after that.
    await view(productQuery(7));
    expect(fake.asked).toHaveLength(3);
    // News reaches none of them.
    expect(answers.outdate(changedShown({ ...NO_CHANGE, news: true }))).toBe(0);
  });

  it.each(failures)(
    'heard while the backend fails (%s): the outdated answer stands in, and is marked so',
    async (_, reply, waitForIt) => {
      const { fake, load, answers } = setUpProduct();
      await load(homeProductsQuery);
      answers.outdate(changedShown({ ...NO_CHANGE, everything: true }));
      fake.answer(HOME, () => reply);
      const served = load(homeProductsQuery);
      await waitForIt(fake);
      expect(await served).toEqual({ value: before, standIn: true });
      fake.answer(HOME, () => json(200, after));
      expect(await load(homeProductsQuery)).toEqual({ value: after, standIn: false });
    },
  );

  it('a renewal asks again for an answer that came before its time, even a fresh one', async () => {
    const { fake, load } = setUpProduct();
    await load(homeProductsQuery);
    vi.advanceTimersByTime(5);
    const since = Date.now();
    fake.answer(HOME, () => json(200, after));
    expect((await load(homeProductsQuery, since)).value).toEqual(after);
    // What came after it is fresh for the next renewal of the same change.
    expect((await load(homeProductsQuery, since)).value).toEqual(after);
    expect(fake.asked).toEqual([HOME, HOME]);
  });
});
