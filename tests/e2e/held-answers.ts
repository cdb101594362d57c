// Answers the test holds back. A test that checks what shows while an answer is on its way
// (a skeleton, a disabled control, a busy button) holds that answer in a route until it has seen
// what it looks for, then releases it: what it checks never depends on how fast the machine is,
// and no fixed delay or short timeout is involved.
import type { Page, Request, Route } from 'playwright-core';

type Release = { status?: number };

export interface HeldAnswers {
  /** Resolves with the first request held: the page has asked and is now waiting. */
  asked: Promise<Request>;
  /** How many matching requests the page has sent so far, held or released. */
  count(): number;
  /** The held requests, and every later one, go on to the server. */
  release(): void;
  /** The held requests, and every later one, are answered with this status instead. */
  fail(status: number): void;
}

/**
 * Holds the page's requests whose URL `matches` (and whose method is `method`, when given) until
 * the test releases or fails them. Requests still held when the page closes are dropped.
 */
export async function holdAnswers(
  page: Page,
  matches: (url: URL) => boolean,
  method?: string,
): Promise<HeldAnswers> {
  let open!: (release: Release) => void;
  const gate = new Promise<Release>((resolve) => (open = resolve));
  let firstAsked!: (request: Request) => void;
  const asked = new Promise<Request>((resolve) => (firstAsked = resolve));
  let count = 0;

  await page.route(matches, async (route: Route) => {
    const request = route.request();
    if (method && request.method() !== method) return route.fallback();
    count += 1;
    firstAsked(request);
    const { status } = await gate;
    try {
      if (status) await route.fulfill({ status, json: { detail: 'Ошибка сервера.' } });
      else await route.fallback();
    } catch {
      // The page or its context closed while the request was held: nothing is waiting for it.
    }
  });

  return {
    asked,
    count: () => count,
    release: () => open({}),
    fail: (status) => open({ status }),
  };
}

/** Matches a URL whose path is `path`, or starts with it when it ends with `/`. */
export function apiPath(path: string): (url: URL) => boolean {
  return (url) => (path.endsWith('/') ? url.pathname.startsWith(path) : url.pathname === path);
}

/**
 * Lets each product_search answer only once section_search of the same search has answered, as
 * on a healthy server. The search leaves out sections that come more than 300 ms after the
 * products (src/features/search/useSearchResults.ts); on a busy machine they can come that late,
 * and a test that expects a section would fail at random. Every search asks both once: the n-th
 * product_search for a query waits for the n-th section_search for it to finish (or fail).
 */
export async function sectionsAnswerFirst(page: Page): Promise<void> {
  const sectionsDone = new Map<string, number>();
  const productsAsked = new Map<string, number>();
  const waiting: { query: string; n: number; go: () => void }[] = [];
  const queryOf = (url: string) => new URL(url).searchParams.get('q') ?? '';
  const onDone = (request: Request) => {
    if (new URL(request.url()).pathname !== '/api/catalog/section_search') return;
    const query = queryOf(request.url());
    const done = (sectionsDone.get(query) ?? 0) + 1;
    sectionsDone.set(query, done);
    for (const waiter of waiting.filter((w) => w.query === query && w.n <= done)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.go();
    }
  };
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);

  await page.route(apiPath('/api/catalog/product_search'), async (route) => {
    const query = queryOf(route.request().url());
    const n = (productsAsked.get(query) ?? 0) + 1;
    productsAsked.set(query, n);
    if ((sectionsDone.get(query) ?? 0) < n) {
      await new Promise<void>((go) => waiting.push({ query, n, go }));
    }
    await route.fallback().catch(() => {});
  });
}
