// The server's side of rendering: loads a page's public data through src/api (the route's
// loader table entry), renders it with React's streaming renderer and says what to answer.
// server/render.ts turns the result into the HTTP answer.
import type { Writable } from 'node:stream';
import { FetchError } from 'ofetch';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { SsrContext } from 'wouter';
import { configureApi } from './api/http';
import { relativeMediaUrls } from './lib/media-urls';
import { setShopTimeZone } from './lib/shop-time-zone';
import { App } from './app/App';
import type { EmbeddedPage } from './app/embedded-page';
import { headHtml, pageHead, scriptJson } from './app/page-head';
import { pageUrl } from './app/page-loading';
import { matchPage, pageQueries } from './app/routes';
import { themeVariablesCss } from './app/theme-variables';
import { PageData } from './ui/page-data';

export { PAGE_DATA_ID } from './app/embedded-page';
export { sitemapPaths } from './app/sitemap';

/** Where the server's own API calls go: the embedded stub, or the real backend's /api. */
export function setApiBase(baseURL: string): void {
  // The server's calls go straight to the backend: the image URLs of its answers name the
  // backend's host, and the page shows them through the shop's /media.
  const origins = [new URL(baseURL).origin];
  configureApi({ baseURL, readAnswer: (data) => relativeMediaUrls(data, origins) });
}

export interface RenderRequest {
  /** The request's path and query, as sent. */
  url: string;
  /** `https://shop.example`, for canonical addresses and OpenGraph. */
  origin: string;
  cookieAccepted: boolean;
  /** The answer's CSP nonce, for the inline scripts. */
  nonce: string;
  /** How long the page waits for its data before it goes out with loading states. */
  dataTimeoutMs: number;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE), the browser's too. */
  timeZone: string;
}

export type RenderResult =
  | { kind: 'redirect'; location: string }
  | {
      kind: 'page';
      status: number;
      /** Title, meta tags and JSON-LD. */
      head: string;
      /** The data hydration starts from, as the JSON text of a script element. */
      embedded: string;
      /** The page module's source path (for its chunks in the build manifest). */
      pageSource: string | undefined;
      /** Writes the app's HTML. */
      pipe(destination: Writable): void;
    };

/**
 * Runs the page's queries, each until the deadline. A 404 is kept (the page redirects, spec
 * §8); any other failure, or no answer in time, is left to the browser, which loads it as a
 * client-side page does.
 */
async function loadPage(url: string, timeoutMs: number): Promise<PageData> {
  const page = new PageData(url);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([
    deadline,
    Promise.all(
      pageQueries(url).map(({ key, load }) =>
        load().then(
          (data) => {
            page.answers[key] = data;
          },
          (error: unknown) => {
            if (error instanceof FetchError && error.statusCode === 404) page.refused[key] = 404;
          },
        ),
      ),
    ),
  ]);
  clearTimeout(timer);
  // Answers that arrive after the deadline must not change a page already rendering.
  return new PageData(url, { ...page.answers }, { ...page.refused });
}

export async function renderPage(request: RenderRequest): Promise<RenderResult> {
  // Appended, not resolved: `//x/product/1` is that path here, as it is in the browser.
  const { pathname, search } = new URL(`http://localhost${request.url}`);
  const url = pageUrl(pathname, search);
  const match = matchPage(new URL(`http://localhost${url}`).pathname);
  const [page] = await Promise.all([
    loadPage(url, request.dataTimeoutMs),
    match?.route.page.preload(),
  ]);
  const context: SsrContext = {};
  const embedded: EmbeddedPage = {
    url,
    answers: page.answers,
    refused: page.refused,
    cookieAccepted: request.cookieAccepted,
    timeZone: request.timeZone,
  };
  setShopTimeZone(request.timeZone);
  return new Promise((resolve, reject) => {
    const stream = renderToPipeableStream(
      // The same tree as the browser's (src/main.tsx), so that useId agrees on both sides.
      <StrictMode>
        <App
          page={page}
          cookieAccepted={request.cookieAccepted}
          ssr={{ path: pathname, search: search.slice(1), context }}
        />
      </StrictMode>,
      {
        nonce: request.nonce,
        // React outlines a finished boundary once the page passes 12.8 KB, and shows it with an
        // inline script on the next animation frame: without JavaScript (or with a page's clock
        // stopped) the main part would stay hidden. Every boundary is ready before a byte goes
        // out, so the page goes out in document order.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        // The data is all here (or left to the browser): waiting for every boundary costs
        // nothing and gives crawlers and link previews the whole page.
        onAllReady() {
          try {
            finish();
          } catch (error) {
            // React would swallow it here, and the answer would never go out.
            stream.abort();
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
        onShellError: reject,
        onError(error) {
          // A part that failed renders on the client instead; the page still goes out.
          console.error('render:', error instanceof Error ? error.message : error);
        },
      },
    );
    function finish() {
      if (context.redirectTo) {
        stream.abort();
        resolve({ kind: 'redirect', location: context.redirectTo });
        return;
      }
      const status = context.statusCode ?? 200;
      const canonical = request.origin + pathname;
      resolve({
        kind: 'page',
        status,
        head: [
          headHtml(
            pageHead(match, page, request.origin, pathname, status),
            request.origin,
            canonical,
            request.nonce,
          ),
          `<style>${themeVariablesCss()}</style>`,
        ].join('\n    '),
        embedded: scriptJson(embedded),
        pageSource: match?.route.page.source,
        pipe: (destination) => stream.pipe(destination),
      });
    }
  });
}
