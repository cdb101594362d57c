// Rendering a page on the server: its status decided from the address and its data before
// anything renders, then React's streaming render of it, and what to answer.
// host/pages/render.ts turns the result into the HTTP answer.
import type { Writable } from 'node:stream';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { lineCount } from '../features/basket/store';
import { App } from '../app/App';
import type { EmbeddedPage } from '../app/embedded-page';
import { headHtml, pageHead, scriptJson } from '../app/page-head';
import { pageUrl } from '../app/page-loading';
import { pageSource } from '../app/page-source';
import { matchPage, pageStatus } from '../app/routes';
import type { FormOutcome } from '../ui/page-data';
import type { BackendCalls } from './backend-calls';
import { loadPage } from './load-page';
import type { PublicAnswers } from './public-answers';

/** What a render uses of its server (createShopServer): the answers kept, the shop's zone. */
export interface PageServer {
  answers: PublicAnswers;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE), the browser's too. */
  timeZone: string;
}

export interface RenderRequest {
  /** The request's path and query, as sent. */
  url: string;
  /** `https://shop.example`, for canonical addresses and OpenGraph. */
  origin: string;
  cookieAccepted: boolean;
  /** The request's calls to the backend: as the visitor, until the page's deadline. */
  calls: BackendCalls;
  /**
   * The same page for everyone (a public route, a visitor with nothing of their own): no basket
   * is loaded and nothing of the visitor's goes in, so a shared cache may keep it.
   */
  shared: boolean;
  /** What the server says of a form the visitor posted without the app. */
  outcome?: FormOutcome;
  /**
   * A renewal of a kept page after a change (host/pages/page-renewal.ts): public answers that came
   * before this time (the wall clock's milliseconds) are asked for again.
   */
  freshSince?: number;
  /** The share of views whose browser reports its speed (RUM_SAMPLE); none by default. */
  rumSample?: number;
}

export type RenderResult = {
  /** The page's route as declared (`/product/:id`), null for the 404 page: the metrics' label. */
  route: string | null;
  /** How long the page waited for its data (the backend, or the answers kept), in ms. */
  backendWaitMs: number;
  /** The backend's cookies for the visitor (a new session, its CSRF token): the answer's too. */
  setCookies: string[];
  /** How many lines the visitor's basket has, as the page shows it; null when not loaded. */
  basketLines: number | null;
  /**
   * Part of its data is the last good answer standing in for one the backend did not give: the
   * page shows what the shop had, and a renewal is tried again later.
   */
  standIn: boolean;
  /** What its data shows (src/lib/shown-data.ts): the changes that make it out of date. */
  shows: string[];
} & (
  | { kind: 'redirect'; location: string }
  | {
      kind: 'page';
      status: number;
      /** False when part of its data did not come (the backend down or late): it is this moment's. */
      complete: boolean;
      /** Title, meta tags and JSON-LD (the theme's variables are the server's: themeVariablesCss). */
      head: string;
      /** The data hydration starts from, as the JSON text of a script element. */
      embedded: string;
      /** The page module's source path (for its chunks in the build manifest). */
      pageSource: string | undefined;
      /** Writes the app's HTML. */
      pipe(destination: Writable): void;
    }
);

/** The page a request asks for: its path as sent, its address as the router reads it, its route. */
function pageOf(requestUrl: string) {
  // Appended, not resolved: `//x/product/1` is that path here, as it is in the browser.
  const { pathname, search } = new URL(`http://localhost${requestUrl}`);
  const url = pageUrl(pathname, search);
  return { pathname, search, url, match: matchPage(url) };
}

/** The route of the page at `requestUrl` as declared (`/product/:id`); null for the 404 page. */
export function pageRoute(requestUrl: string): string | null {
  return pageOf(requestUrl).match?.route.path ?? null;
}

/** Whether the page at `requestUrl` may be the same for everyone (its route's cache policy). */
export function isPublicPage(requestUrl: string): boolean {
  const server = pageOf(requestUrl).match?.route.server;
  return server ? server.cache === 'public' : false;
}

/**
 * The page a request asks for, as HTML, or where it sends the visitor instead. The status is
 * decided before anything renders: by the address alone (a catalogue id that is not one: no call
 * is made), else by the page's critical data (a 404 answer: its -404 page); a page is rendered
 * only to be sent.
 */
export async function renderPage(
  request: RenderRequest,
  { answers, timeZone }: PageServer,
): Promise<RenderResult> {
  let backendWaitMs = 0;
  const { pathname, search, url, match } = pageOf(request.url);
  const route = match?.route.path ?? null;
  const decided = pageStatus(match, {});
  if (decided.kind === 'redirect') {
    // Nothing was asked of the backend: nothing came of it.
    const nothing = { backendWaitMs, setCookies: [], basketLines: null, standIn: false, shows: [] };
    return { kind: 'redirect', location: decided.location, route, ...nothing };
  }
  const waitStarted = performance.now();
  const [{ page, basket, standIn, shows }, source] = await Promise.all([
    loadPage(answers, url, request.calls, {
      outcome: request.outcome ?? {},
      shared: request.shared,
      freshSince: request.freshSince,
    }).finally(() => {
      backendWaitMs = performance.now() - waitStarted;
    }),
    match && pageSource(match.route.page),
  ]);
  // What the backend set for the visitor (a newcomer's session) goes out with their page; a page
  // for everyone carries no cookie.
  const setCookies = request.shared ? [] : request.calls.setCookies();
  const basketLines = request.shared || typeof basket === 'string' ? null : lineCount(basket.lines);
  const answer = pageStatus(match, page.refused);
  const loaded = { backendWaitMs, setCookies, basketLines, standIn, shows };
  if (answer.kind === 'redirect') {
    return { kind: 'redirect', location: answer.location, route, ...loaded };
  }
  const { status } = answer;
  const embedded: EmbeddedPage = {
    url,
    answers: page.answers,
    refused: page.refused,
    cookieAccepted: request.cookieAccepted,
    timeZone,
    basket,
    outcome: page.outcome,
    rumSample: request.rumSample ?? 0,
  };
  return new Promise((resolve, reject) => {
    const stream = renderToPipeableStream(
      // The same tree as the browser's (src/main.tsx), so that useId agrees on both sides.
      <StrictMode>
        <App
          page={page}
          cookieAccepted={request.cookieAccepted}
          basket={basket}
          timeZone={timeZone}
          ssr={{ path: pathname, search: search.slice(1) }}
        />
      </StrictMode>,
      {
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
      const canonical = request.origin + pathname;
      resolve({
        kind: 'page',
        route,
        ...loaded,
        status,
        complete: Object.values(page.refused).every((refusal) => refusal === 404),
        head: headHtml(
          pageHead(match, page, request.origin, pathname, status),
          request.origin,
          canonical,
        ),
        embedded: scriptJson(embedded),
        pageSource: source ?? undefined,
        pipe: (destination) => stream.pipe(destination),
      });
    }
  });
}
