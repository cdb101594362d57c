// The search figures of issue 4, part of `npm run bench`:
//   1. The stub's product_search over 10,000 generated products: median time per query to find
//      the products and write the answer's JSON body, as the route does (target 10 ms or less).
//   2. In Chromium, against the production build served by the stub on 127.0.0.1: the time from
//      the last keystroke to the results painted (target: the 500 ms pause plus 100 ms or less).
import type { Browser } from 'playwright-core';
import { searchByName } from '../stub-server/search.ts';
import type { StoredProduct } from '../stub-server/db.ts';
import { toProduct } from '../stub-server/serializers.ts';
import { generateProducts } from '../tests/stub/search-catalog.ts';
import { mark } from './lib/report.ts';
import { median } from './lib/stats.ts';

const STUB_PRODUCTS = 10_000;
const STUB_TARGET_MS = 10;
const STUB_RUNS = 50;
const STUB_WARMUP_RUNS = 5;
/** Short and long, broad and narrow, with ё, and one that finds nothing. */
const STUB_QUERIES = [
  'мал',
  'клубника',
  'черн',
  'к',
  'смородина красная',
  'ёлочк',
  'из мал',
  'zzz',
];

const DEBOUNCE_MS = 500;
const BROWSER_OVERHEAD_TARGET_MS = 100;
const BROWSER_ROUNDS = 3;
/** Queries typed in the shop, with a product each must show (seed catalogue). */
const BROWSER_QUERIES: [query: string, productId: number][] = [
  ['мал', 7],
  ['клубника', 6],
  ['черн', 20],
  ['смородина', 11],
  ['вишня', 25],
];
/** Between keystrokes: a brisk typist, well under the pause. */
const KEY_DELAY_MS = 60;

const ms = (value: number) => value.toFixed(2);

/** What GET /api/catalog/product_search does for `query`, short of the socket. */
const answerBody = (products: StoredProduct[], query: string): string =>
  JSON.stringify(searchByName(products, query).map(toProduct));

/** Generated names made into whole stored products, so the answer is as long as a real one. */
const storedProducts = (count: number): StoredProduct[] =>
  generateProducts(count).map(({ id, name }) => ({
    id,
    name,
    section_id: 1 + (id % 40),
    image: `/media/products/${id}.svg`,
    unit: id % 3 === 0 ? 'шт' : 'кг',
    unit_step: id % 3 === 0 ? null : 0.1,
    price: 90 + (id % 900),
    rest: id % 25,
    available: id % 11 !== 0,
  }));

export function benchStubSearch() {
  const products = storedProducts(STUB_PRODUCTS);
  // The first query over a list builds its index; it is reported apart, not hidden.
  const started = performance.now();
  answerBody(products, 'малина');
  const firstQuery = performance.now() - started;

  // Queries take turns, so a burst of load elsewhere on the machine spreads over all of them.
  const times = new Map<string, number[]>(STUB_QUERIES.map((query) => [query, []]));
  const found = new Map<string, number>();
  for (let run = -STUB_WARMUP_RUNS; run < STUB_RUNS; run += 1) {
    for (const query of STUB_QUERIES) {
      const t0 = performance.now();
      const body = answerBody(products, query);
      const elapsed = performance.now() - t0;
      const count = (JSON.parse(body) as unknown[]).length;
      if (run >= 0) times.get(query)?.push(elapsed);
      found.set(query, count);
    }
  }
  const queries = STUB_QUERIES.map((query) => ({
    query,
    found: found.get(query) ?? 0,
    median_ms: median(times.get(query) ?? []),
  }));
  const all = [...times.values()].flat();
  const overall = median(all);
  return {
    products: products.length,
    runs_per_query: STUB_RUNS,
    first_query_ms: firstQuery,
    queries,
    median_ms: overall,
    target_ms: STUB_TARGET_MS,
    met: overall <= STUB_TARGET_MS,
  };
}

/**
 * In the page: remembers the time of the last keystroke, and resolves with the time from it to
 * the first frame painted after the results for `query` (the status line and the product link)
 * are in the DOM. A frame callback followed by a task runs once that frame has been painted.
 */
function watchResults([query, href]: [string, string]): Promise<number> {
  // `input`, not `keydown`: Chromium types Cyrillic as text insertion, with no key events.
  let lastKey = 0;
  document.addEventListener('input', (event) => (lastKey = event.timeStamp), true);
  // No named helpers in here: tsx would wrap them in a `__name` call the page does not have.
  return new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error(`no results for «${query}» within 10 s`)), 10_000);
    const observer = new MutationObserver(() => {
      const field = document.querySelector<HTMLInputElement>('input');
      const status = document.querySelector('[role="status"]')?.textContent ?? '';
      const shown =
        field?.value === query &&
        status.startsWith('Найдено') &&
        document.querySelector(`main a[href="${href}"]`) !== null;
      if (!shown) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - lastKey)));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

export async function benchSearchInBrowser(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'ru-RU',
    serviceWorkers: 'block',
  });
  // Nothing may leave the machine.
  await context.route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
    (route) => route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  const samples: { query: string; ms: number }[] = [];
  try {
    // Round 0 warms up (code chunks, JIT, the stub's first answers) and is not counted.
    for (let round = 0; round <= BROWSER_ROUNDS; round += 1) {
      for (const [query, productId] of BROWSER_QUERIES) {
        await page.goto(`${baseUrl}/search`);
        const field = page.getByRole('textbox', { name: 'Поиск' });
        // The server's field is there at once; typing counts from when the app has taken it over.
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
        await field.waitFor();
        // Together, so a failure of either is handled at once (an unhandled rejection would end
        // the process before the browser and the server are stopped).
        const [elapsed] = await Promise.all([
          page.evaluate(watchResults, [query, `/product/${productId}`] as [string, string]),
          field.pressSequentially(query, { delay: KEY_DELAY_MS }),
        ]);
        if (round > 0) samples.push({ query, ms: elapsed });
      }
    }
  } finally {
    await context.close().catch(() => {});
  }
  const values = samples.map((s) => s.ms);
  const middle = median(values);
  return {
    samples,
    median_ms: middle,
    max_ms: Math.max(...values),
    debounce_ms: DEBOUNCE_MS,
    overhead_median_ms: middle - DEBOUNCE_MS,
    target_ms: DEBOUNCE_MS + BROWSER_OVERHEAD_TARGET_MS,
    met: middle <= DEBOUNCE_MS + BROWSER_OVERHEAD_TARGET_MS,
    chromium: browser.version(),
  };
}

/** The search figures as Markdown. */
export function searchTable(stub: StubFigures, web: BrowserFigures): string {
  const lines = [
    '| Measure | Median | Target | Met |',
    '| --- | ---: | ---: | :---: |',
    `| Stub product_search, ${stub.products} products, per query (search + JSON body) | ${ms(stub.median_ms)} ms | ≤ ${stub.target_ms} ms | ${mark(stub.met)} |`,
    `| Last keystroke → results painted (Chromium) | ${ms(web.median_ms)} ms | ≤ ${web.target_ms} ms | ${mark(web.met)} |`,
    `| … of which after the ${web.debounce_ms} ms pause | ${ms(web.overhead_median_ms)} ms | ≤ ${BROWSER_OVERHEAD_TARGET_MS} ms | ${mark(web.met)} |`,
    '',
    `| Stub query (${stub.runs_per_query} runs each, after ${STUB_WARMUP_RUNS} warm-up runs) | Found | Median |`,
    '| --- | ---: | ---: |',
    ...stub.queries.map((q) => `| \`${q.query}\` | ${q.found} | ${ms(q.median_ms)} ms |`),
    `| first query (builds the index) | | ${ms(stub.first_query_ms)} ms |`,
    '',
    `Browser: ${web.samples.length} samples (${BROWSER_ROUNDS} rounds of ${BROWSER_QUERIES.length} queries typed ${KEY_DELAY_MS} ms per key, after a warm-up round), max ${ms(web.max_ms)} ms, Chromium ${web.chromium}.`,
  ];
  return lines.join('\n');
}

export type StubFigures = ReturnType<typeof benchStubSearch>;

export type BrowserFigures = Awaited<ReturnType<typeof benchSearchInBrowser>>;
