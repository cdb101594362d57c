// Pictures (issue 20), in front of the stub with its photos (2400 px JPEGs of about 2 MB):
//   - what a phone downloads in pictures: the first view of / (as tests/e2e/first-view.ts defines
//     it, on a 390 × 844 screen at 3x, the densest common phone) and /product/7's photo;
//   - the image route's throughput, from host/main.ts in a process of its own with an empty
//     cache: cold resizes (every product photo at 3 widths, AVIF and WebP, 2 requests at a time
//     as the route itself resizes 2 at a time), then cached answers (autocannon, 20 connections
//     on one picture, 3 s of warm-up, then 10 s).
// Targets: / at most 400 KB of pictures, /product/7's photo at most 60 KB; Lighthouse's LCP on
// /product/7 at most 2.5 s is read from the audits (bench/run.ts). Throughput has no target.
import autocannon from 'autocannon';
import type { Browser } from 'playwright-core';
import { PHOTO_PRODUCTS } from '../stub-server/fixtures/media-paths.ts';
import { FIRST_VIEW_VIEWPORT, kb, QUIET_AFTER_IDLE_MS } from '../tests/e2e/first-view.ts';
import type { AtExit } from './lib/main.ts';
import { mark } from './lib/report.ts';
import { startShopChild } from './lib/shop.ts';
import { percentile } from './lib/stats.ts';

export const IMAGES_TARGET = { home_bytes: 400_000, product_bytes: 60_000, product_lcp_ms: 2500 };
const PRODUCT = '/product/7';
const PRODUCT_PHOTO = /\/catalog\/product-7\.jpg$/;
const ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const COLD_WIDTHS = [320, 640, 960];
const COLD_ACCEPTS = { avif: 'image/avif,*/*', webp: 'image/webp,*/*' };
const CACHED_URL = '/img/v1/640/catalog/product-7.jpg';
const CONNECTIONS = 20;

export interface PictureView {
  route: string;
  count: number;
  bytes: number;
  /** The pictures, largest first: path, type, bytes as sent. */
  files: { path: string; type: string; bytes: number }[];
}

export interface ImageRouteFigures {
  cold: { resizes: number; per_s: number; p50_ms: number; p99_ms: number; failed: number };
  cached: { path: string; connections: number; per_s: number; p50_ms: number; p99_ms: number };
}

/** Opens `route` as a first-time visitor on a phone and adds up the pictures it downloads. */
export async function measurePictures(
  browser: Browser,
  baseUrl: string,
  route: string,
): Promise<PictureView> {
  const context = await browser.newContext({
    viewport: FIRST_VIEW_VIEWPORT,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    colorScheme: 'light',
    locale: 'ru-RU',
    serviceWorkers: 'block',
  });
  const files: Promise<PictureView['files'][number]>[] = [];
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
  return {
    route,
    count: done.length,
    bytes: done.reduce((sum, file) => sum + file.bytes, 0),
    files: done,
  };
}

/** The product photo's bytes on /product/7 (0 when it was not loaded). */
export function productPhotoBytes(view: PictureView): number {
  return view.files.find((file) => PRODUCT_PHOTO.test(file.path))?.bytes ?? 0;
}

export async function benchImageRoute(atExit: AtExit): Promise<ImageRouteFigures> {
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
        Object.values(COLD_ACCEPTS).map((accept) => ({
          url: `${server.url}/img/v1/${width}/catalog/product-${id}.jpg`,
          accept,
        })),
      ),
    );
    const latencies: number[] = [];
    let failed = 0;
    const started = performance.now();
    const worker = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        const at = performance.now();
        const response = await fetch(job.url, { headers: { Accept: job.accept } });
        await response.arrayBuffer();
        latencies.push(performance.now() - at);
        if (response.status !== 200) failed += 1;
      }
    };
    await Promise.all([worker(), worker()]);
    const seconds = (performance.now() - started) / 1000;

    const load = (duration: number) =>
      autocannon({
        url: server.url + CACHED_URL,
        connections: CONNECTIONS,
        duration,
        headers: { accept: ACCEPT },
      });
    await load(3);
    const cached = await load(10);
    return {
      cold: {
        resizes: latencies.length,
        per_s: latencies.length / seconds,
        p50_ms: percentile(latencies, 0.5),
        p99_ms: percentile(latencies, 0.99),
        failed,
      },
      cached: {
        path: CACHED_URL,
        connections: CONNECTIONS,
        per_s: cached.requests.average,
        p50_ms: cached.latency.p50,
        p99_ms: cached.latency.p99,
      },
    };
  } finally {
    await server.close();
  }
}

export function imagesTable(
  home: PictureView,
  product: PictureView,
  productLcpMs: number,
  route: ImageRouteFigures,
): string {
  const photo = productPhotoBytes(product);
  return [
    '| measure | figure | target | met |',
    '| --- | ---: | ---: | :---: |',
    `| pictures in the first view of \`/\` (390 × 844 at 3x) | ${kb(home.bytes)} KB in ${home.count} files | ≤ ${kb(IMAGES_TARGET.home_bytes)} KB | ${mark(home.bytes <= IMAGES_TARGET.home_bytes)} |`,
    `| \`${PRODUCT}\`'s photo (same phone) | ${kb(photo)} KB | ≤ ${kb(IMAGES_TARGET.product_bytes)} KB | ${mark(photo > 0 && photo <= IMAGES_TARGET.product_bytes)} |`,
    `| Lighthouse mobile LCP on \`${PRODUCT}\` | ${(productLcpMs / 1000).toFixed(2)} s | ≤ ${(IMAGES_TARGET.product_lcp_ms / 1000).toFixed(1)} s | ${mark(productLcpMs <= IMAGES_TARGET.product_lcp_ms)} |`,
    `| image route, cold resizes (${route.cold.resizes} from 2400 px JPEGs, 2 at a time) | ${route.cold.per_s.toFixed(1)}/s, p50 ${Math.round(route.cold.p50_ms)} ms, p99 ${Math.round(route.cold.p99_ms)} ms, ${route.cold.failed} failed | — | |`,
    `| image route, cached answers (\`${route.cached.path}\`, ${route.cached.connections} connections) | ${route.cached.per_s.toFixed(0)}/s, p50 ${route.cached.p50_ms} ms, p99 ${route.cached.p99_ms} ms | — | |`,
    '',
    `Largest pictures of \`/\`: ${home.files
      .slice(0, 5)
      .map((file) => `${file.path} (${file.type}, ${kb(file.bytes)} KB)`)
      .join(', ')}.`,
  ].join('\n');
}

export function imagesMet(home: PictureView, product: PictureView, productLcpMs: number): boolean {
  const photo = productPhotoBytes(product);
  return (
    home.bytes <= IMAGES_TARGET.home_bytes &&
    photo > 0 &&
    photo <= IMAGES_TARGET.product_bytes &&
    productLcpMs <= IMAGES_TARGET.product_lcp_ms
  );
}
