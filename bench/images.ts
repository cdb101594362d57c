// Pictures (issue 20), in front of the stub with its 2400 px photos: Lighthouse's LCP on
// /product/7, and the image route's throughput with an empty cache (cold resizes, 2 at a time as
// the route itself resizes 2 at a time), then cached. What a phone downloads, in bytes, is
// tests/e2e/pictures.test.ts's.
import autocannon from 'autocannon';
import { PHOTO_PRODUCTS } from '../stub-server/fixtures/media-paths.ts';
import type { AtExit } from './lib/main.ts';
import { row, type Target } from './lib/report.ts';
import { startShopChild } from './lib/shop.ts';
import { rate } from './lib/visitor.ts';

const PRODUCT_LCP_MS = 2500;
const COLD_WIDTHS = [320, 640, 960];
const CACHED_URL = '/img/v1/640/catalog/product-7.jpg';
const CONNECTIONS = 20;

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
    return {
      cold: {
        resizes: cold.requests.total,
        per_s: cold.requests.total / cold.duration,
        p50_ms: cold.latency.p50,
        p99_ms: cold.latency.p99,
        failed: cold.non2xx + cold.errors + cold.timeouts,
      },
      cached: await rate(server.url + CACHED_URL, CONNECTIONS, { accept }),
    };
  } finally {
    await server.close();
  }
}

/** /product/7's LCP against its target, and the image route's throughput (no target) beside it. */
export function imagesTargets(
  productLcpMs: number,
  { cold, cached }: Awaited<ReturnType<typeof benchImageRoute>>,
): Target[] {
  return [
    row(
      'Lighthouse mobile LCP on `/product/7`',
      `${(productLcpMs / 1000).toFixed(2)} s`,
      `≤ ${PRODUCT_LCP_MS / 1000} s`,
      productLcpMs <= PRODUCT_LCP_MS,
    ),
    row(
      `image route, cold resizes (${cold.resizes} from 2400 px JPEGs, 2 at a time)`,
      `${cold.per_s.toFixed(1)}/s, p50 ${Math.round(cold.p50_ms)} ms, p99 ${Math.round(cold.p99_ms)} ms, ${cold.failed} failed`,
    ),
    row(
      `image route, cached answers (\`${CACHED_URL}\`, ${CONNECTIONS} connections)`,
      `${cached.per_s}/s, p50 ${cached.p50_ms} ms, p99 ${cached.p99_ms} ms, ${cached.failed} failed`,
    ),
  ];
}
