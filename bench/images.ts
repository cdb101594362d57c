// Pictures (issue 20), in front of the stub with its 2400 px photos: what a phone (390 × 844 at
// 3x, the densest common one) downloads on the first view of / (tests/e2e/first-view.ts) and for
// /product/7's photo, and the image route's throughput with an empty cache (cold resizes, 2 at a
// time as the route itself resizes 2 at a time), then cached (after 3 s of warm-up): autocannon.
import autocannon from 'autocannon';
import type { Browser } from 'playwright-core';
import { PHOTO_PRODUCTS } from '../stub-server/fixtures/media-paths.ts';
import { FIRST_VIEW_VIEWPORT, kb, QUIET_AFTER_IDLE_MS } from '../tests/e2e/first-view.ts';
import type { AtExit } from './lib/main.ts';
import { row, type Target } from './lib/report.ts';
import { startShopChild } from './lib/shop.ts';

const TARGET = { home_bytes: 400_000, product_bytes: 60_000, product_lcp_ms: 2500 };
const COLD_WIDTHS = [320, 640, 960];
const CACHED_URL = '/img/v1/640/catalog/product-7.jpg';
const CONNECTIONS = 20;

export type PictureView = Awaited<ReturnType<typeof measurePictures>>;

/** Opens `route` as a first-time visitor on a phone and adds up the pictures it downloads. */
export async function measurePictures(browser: Browser, baseUrl: string, route: string) {
  const context = await browser.newContext({
    viewport: FIRST_VIEW_VIEWPORT,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    colorScheme: 'light',
    locale: 'ru-RU',
    serviceWorkers: 'block',
  });
  const files: Promise<{ path: string; type: string; bytes: number }>[] = [];
  context.on('requestfinished', (request) => {
    if (request.resourceType() !== 'image') return;
    files.push(
      (async () => ({
        path: new URL(request.url()).pathname,
        type: (await (await request.response())?.headerValue('content-type')) ?? '',
        bytes: (await request.sizes()).responseBodySize,
      }))(),
    );
  });
  try {
    const page = await context.newPage();
    await page.goto(new URL(route, baseUrl).href, { waitUntil: 'networkidle' });
    await page.waitForTimeout(QUIET_AFTER_IDLE_MS);
    await page.waitForLoadState('networkidle');
  } finally {
    await context.close().catch(() => {});
  }
  const done = (await Promise.all(files)).sort((a, b) => b.bytes - a.bytes);
  return { route, bytes: done.reduce((sum, file) => sum + file.bytes, 0), files: done };
}

export async function benchImageRoute(atExit: AtExit) {
  const server = await startShopChild(atExit);
  try {
    // The stub makes its photos on first request: made before the clock starts.
    await Promise.all(
      [...PHOTO_PRODUCTS].map((id) =>
        fetch(`${server.url}/media/catalog/product-${id}.jpg`).then((r) => r.arrayBuffer()),
      ),
    );
    const jobs = [...PHOTO_PRODUCTS].flatMap((id) =>
      COLD_WIDTHS.flatMap((width) =>
        ['image/avif,*/*', 'image/webp,*/*'].map((accept) => ({
          path: `/img/v1/${width}/catalog/product-${id}.jpg`,
          headers: { accept },
        })),
      ),
    );
    // Each request takes the next job (a wrap takes up any that a connection built but did not
    // send), so that every one is a resize.
    let next = 0;
    const cold = await autocannon({
      url: server.url,
      connections: 2,
      amount: jobs.length,
      requests: [{ setupRequest: (request) => ({ ...request, ...jobs[next++ % jobs.length] }) }],
    });
    const accept = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
    const load = (duration: number) =>
      autocannon({
        url: server.url + CACHED_URL,
        connections: CONNECTIONS,
        duration,
        headers: { accept },
      });
    await load(3);
    const figures = (result: autocannon.Result) => ({
      per_s: result.requests.total / result.duration,
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      failed: result.non2xx + result.errors + result.timeouts,
    });
    return {
      cold: { resizes: cold.requests.total, ...figures(cold) },
      cached: figures(await load(10)),
    };
  } finally {
    await server.close();
  }
}

/** The pictures' targets, and the image route's throughput (no target) beside them. */
export function imagesTargets(
  home: PictureView,
  product: PictureView,
  productLcpMs: number,
  { cold, cached }: Awaited<ReturnType<typeof benchImageRoute>>,
): Target[] {
  const photo = product.files.find((file) => file.path.endsWith('/catalog/product-7.jpg'));
  const photoBytes = photo?.bytes ?? 0;
  const largest = home.files.slice(0, 5).map((file) => `${file.path} ${file.type}`);
  return [
    row(
      `pictures in the first view of \`/\` (390 × 844 at 3x; largest: ${largest.join(', ')})`,
      `${kb(home.bytes)} KB in ${home.files.length} files`,
      `≤ ${kb(TARGET.home_bytes)} KB`,
      home.bytes <= TARGET.home_bytes,
    ),
    row(
      "`/product/7`'s photo (same phone)",
      `${kb(photoBytes)} KB`,
      `≤ ${kb(TARGET.product_bytes)} KB`,
      photoBytes > 0 && photoBytes <= TARGET.product_bytes,
    ),
    row(
      'Lighthouse mobile LCP on `/product/7`',
      `${(productLcpMs / 1000).toFixed(2)} s`,
      `≤ ${TARGET.product_lcp_ms / 1000} s`,
      productLcpMs <= TARGET.product_lcp_ms,
    ),
    row(
      `image route, cold resizes (${cold.resizes} from 2400 px JPEGs, 2 at a time)`,
      `${cold.per_s.toFixed(1)}/s, p50 ${Math.round(cold.p50_ms)} ms, p99 ${Math.round(cold.p99_ms)} ms, ${cold.failed} failed`,
    ),
    row(
      `image route, cached answers (\`${CACHED_URL}\`, ${CONNECTIONS} connections)`,
      `${cached.per_s.toFixed(0)}/s, p50 ${cached.p50_ms} ms, p99 ${cached.p99_ms} ms, ${cached.failed} failed`,
    ),
  ];
}
