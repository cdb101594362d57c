// The bytes of JS and CSS a shopper's browser loads for the first view of a route, measured in
// Chromium against the production build and counted from the built files themselves.
//
// "First view" of a route, as the size budget test and `npm run bench` both use it:
//   - a fresh browser context (empty cache, no cookies, no localStorage: a first-time visitor,
//     so the cookie notice shows), 390x844 viewport, light theme, Russian locale;
//   - the page is opened at the route and left alone: no scrolling, no pointer, no keys;
//   - every JS and CSS response from our own server counts, from navigation start until the
//     network has been idle for 500 ms (Playwright's `networkidle`) plus a further 1 s, so a
//     chunk fetched on a timer or on idle right after load is counted too;
//   - the build's stylesheets the server wrote inline in the HTML count as CSS too (each marked
//     by a disabled <link> naming its file: host/pages/page-assets.ts);
//   - each file counts once, by its bytes in the build directory, compressed here with zlib
//     (gzip and brotli at zlib's default settings); transfer headers are not trusted.
// The HTML document itself (with its small inline theme script) is not counted, nor fonts,
// images and API answers.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

import type { Browser, BrowserContext, Page } from 'playwright-core';

export const FIRST_VIEW_VIEWPORT = { width: 390, height: 844 };
/**
 * Issue 8's size budget for the first view of `/`, in bytes of gzip (1 KB = 1000 bytes): the
 * size test enforces it and the bench reports against it.
 */
export const HOME_BUDGET = { jsGzip: 120_000, cssGzip: 15_000 };
/** src/features/catalog/HomeSlide.tsx's SLIDE_INTERVAL_MS (that module imports CSS). */
export const FIRST_CHANGE_MS = 6000;
/** After Playwright's network idle (500 ms without requests), wait this much longer. */
export const QUIET_AFTER_IDLE_MS = 1000;

/** A first-time visitor's browser: empty cache and storage, a phone's screen, light theme. */
export function firstVisitorContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: FIRST_VIEW_VIEWPORT,
    colorScheme: 'light',
    locale: 'ru-RU',
    serviceWorkers: 'block',
  });
}

export interface LoadedFile {
  /** Path on the server, e.g. `/assets/index-abc123.js`. */
  path: string;
  kind: 'js' | 'css';
  raw: number;
  gzip: number;
  brotli: number;
}

export interface Bytes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface FirstView {
  route: string;
  files: LoadedFile[];
  js: Bytes;
  css: Bytes;
  /** Requests that tried to leave the machine (aborted); a healthy page has none. */
  external: string[];
}

function kindOf(pathname: string): LoadedFile['kind'] | null {
  if (pathname.endsWith('.js') || pathname.endsWith('.mjs')) return 'js';
  if (pathname.endsWith('.css')) return 'css';
  return null;
}

export async function compressedSizes(file: string): Promise<Bytes> {
  const bytes = await readFile(file);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes).length,
    brotli: brotliCompressSync(bytes).length,
  };
}

function sum(files: LoadedFile[], kind: LoadedFile['kind']): Bytes {
  const total: Bytes = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    if (file.kind !== kind) continue;
    total.raw += file.raw;
    total.gzip += file.gzip;
    total.brotli += file.brotli;
  }
  return total;
}

/**
 * Opens `route` on the server at `baseUrl` (serving the build in `distDir`) as described at the
 * top of this file and returns the JS and CSS files it loaded with their sizes.
 */
export async function measureFirstView(
  browser: Browser,
  baseUrl: string,
  route: string,
  distDir: string,
  /** Runs on the page once it has settled, before it closes (e.g. to check what it shows). */
  check?: (page: Page) => Promise<void>,
): Promise<FirstView> {
  const origin = new URL(baseUrl).origin;
  const context = await firstVisitorContext(browser);
  const seen = new Set<string>();
  const external: string[] = [];
  try {
    // Nothing may leave the machine; what tries is reported.
    await context.route(
      (url) => url.origin !== origin && url.protocol.startsWith('http'),
      (request) => {
        external.push(request.request().url());
        return request.abort('blockedbyclient');
      },
    );
    context.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === origin && response.ok() && kindOf(url.pathname)) seen.add(url.pathname);
    });
    // The first view is what loads before the page's first change of its own: the carousel's
    // first turn (SLIDE_INTERVAL_MS, spec §9's 6 s), which brings its engine. A busy machine can
    // take longer than that to reach network idle, so timers that long are held here: the figure
    // is the same however fast the machine is.
    await context.addInitScript((heldFrom: number) => {
      const schedule = window.setTimeout;
      window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) =>
        Number(delay) >= heldFrom ? 0 : schedule(handler, delay, ...args)) as typeof setTimeout;
    }, FIRST_CHANGE_MS);
    const page = await context.newPage();
    await page.goto(new URL(route, origin).href, { waitUntil: 'networkidle' });
    await page.waitForTimeout(QUIET_AFTER_IDLE_MS);
    await page.waitForLoadState('networkidle');
    const inline = await page
      .locator('link[rel="stylesheet"][disabled]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    for (const href of inline) seen.add(new URL(href, origin).pathname);
    await check?.(page);
  } finally {
    await context.close().catch(() => {});
  }

  const files: LoadedFile[] = [];
  for (const pathname of [...seen].sort()) {
    const kind = kindOf(pathname);
    if (!kind) continue;
    const file = path.join(distDir, decodeURIComponent(pathname));
    files.push({ path: pathname, kind, ...(await compressedSizes(file)) });
  }
  return { route, files, js: sum(files, 'js'), css: sum(files, 'css'), external };
}

/** Kilobytes as Vite reports them (1 KB = 1000 bytes), the stricter reading of a budget. */
export const kb = (bytes: number) => (bytes / 1000).toFixed(1);
