// The search figures of issue 4, part of `npm run bench` (the docs give the targets): the stub's
// product_search over 10,000 generated products, per query the time to find them and write the
// JSON body as the route does; in Chromium, the last keystroke to the results painted.
import type { Browser } from 'playwright-core';
import { hydrated } from '../tests/e2e/browser.ts';
import { searchByName } from '../stub-server/search.ts';
import type { StoredProduct } from '../stub-server/db.ts';
import { buildCatalogSeed } from '../stub-server/fixtures/seed.ts';
import { toProduct } from '../stub-server/serializers.ts';
import { generateProducts } from '../tests/stub/search-catalog.ts';
import { phoneContext, timeUntilShown } from './lib/browsers.ts';
import { row, type Target } from './lib/report.ts';
import { median } from './lib/stats.ts';

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
const BROWSER_ROUNDS = 3;
/** Queries typed in the shop, with a product each must show (seed catalogue). */
const BROWSER_QUERIES = { мал: 7, клубника: 6, черн: 20, смородина: 11, вишня: 25 };
/** Between keystrokes: a brisk typist, well under the pause. */
const KEY_DELAY_MS = 60;

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** What GET /api/catalog/product_search does for `query`, short of the socket. */
const answerBody = (products: StoredProduct[], query: string): string =>
  JSON.stringify(searchByName(products, query).map(toProduct));

export function benchStubSearch() {
  // Generated names on the seed's products, so that each answer is as long as a real one.
  const seed = buildCatalogSeed().products;
  const products: StoredProduct[] = generateProducts(10_000).map(({ id, name }, index) => {
    const product = seed[index % seed.length] as StoredProduct;
    return { ...product, id, name, section_id: 1 + (id % 40) };
  });
  // The first query over a list builds its index; it is reported apart, not hidden.
  const started = performance.now();
  answerBody(products, 'малина');
  const firstQuery = performance.now() - started;
  // Queries take turns, so a burst of load elsewhere on the machine spreads over all of them.
  const times = STUB_QUERIES.map((): number[] => []);
  for (let run = -STUB_WARMUP_RUNS; run < STUB_RUNS; run += 1) {
    for (const [index, query] of STUB_QUERIES.entries()) {
      const t0 = performance.now();
      answerBody(products, query);
      if (run >= 0) times[index]?.push(performance.now() - t0);
    }
  }
  return {
    products: products.length,
    first_query_ms: firstQuery,
    queries: STUB_QUERIES.map((query, index) => ({
      query,
      found: searchByName(products, query).length,
      median_ms: median(times[index] ?? []),
    })),
    median_ms: median(times.flat()),
  };
}

export async function benchSearchInBrowser(browser: Browser, baseUrl: string) {
  const context = await phoneContext(browser, new URL(baseUrl).origin);
  const page = await context.newPage();
  const samples: number[] = [];
  try {
    // Round 0 warms up (code chunks, JIT, the stub's first answers) and is not counted.
    for (let round = 0; round <= BROWSER_ROUNDS; round += 1) {
      for (const [query, productId] of Object.entries(BROWSER_QUERIES)) {
        await page.goto(`${baseUrl}/search`);
        const field = page.getByRole('textbox', { name: 'Поиск' });
        // The server's field is there at once; typing counts from when the app has taken it over.
        await hydrated(page);
        const shown = `document.querySelector('main input[name="q"]')?.value === ${JSON.stringify(query)} &&
          (document.querySelector('[role="status"]')?.textContent ?? '').startsWith('Найдено') &&
          document.querySelector('main a[href="/product/${productId}"]') !== null`;
        // Together, so a failure of either is handled at once (an unhandled rejection would end
        // the process before the browser and the server are stopped).
        const [elapsed] = await Promise.all([
          timeUntilShown(page, shown, { typing: true }),
          field.pressSequentially(query, { delay: KEY_DELAY_MS }),
        ]);
        if (round > 0) samples.push(elapsed);
      }
    }
  } finally {
    await context.close().catch(() => {});
  }
  return { samples_ms: samples, median_ms: median(samples), max_ms: Math.max(...samples) };
}

/** The two targets; the stub's queries one by one and the first (which builds the index) apart. */
export function searchTargets(
  stub: ReturnType<typeof benchStubSearch>,
  web: Awaited<ReturnType<typeof benchSearchInBrowser>>,
): Target[] {
  const queries = stub.queries.map((q) => `\`${q.query}\` ${ms(q.median_ms)} (${q.found})`);
  return [
    row(
      `stub product_search, ${stub.products} products, median per query (search + JSON body) of ${STUB_RUNS} runs each: ${queries.join(', ')}; the first query ${ms(stub.first_query_ms)}`,
      ms(stub.median_ms),
      '≤ 10 ms',
      stub.median_ms <= 10,
    ),
    row(
      `last keystroke (${KEY_DELAY_MS} ms apart) → results painted, the ${DEBOUNCE_MS} ms pause included (Chromium, median of ${web.samples_ms.length}, max ${ms(web.max_ms)})`,
      ms(web.median_ms),
      `≤ ${DEBOUNCE_MS + 100} ms`,
      web.median_ms <= DEBOUNCE_MS + 100,
    ),
  ];
}
