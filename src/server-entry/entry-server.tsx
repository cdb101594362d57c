// The server's side of rendering: loads a page's public data through src/api (the route's
// loader table entry), renders it with React's streaming renderer and says what to answer.
// host/pages/render.ts turns the result into the HTTP answer.
import type { Writable } from 'node:stream';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { getBasket, getTotalPrice } from '../api/basket';
import { failureCase } from '../api/call-failure';
import { errorStatus } from '../api/http';
import { type BasketSeed, type BasketStart, lineCount } from '../features/basket/store';
import { App } from '../app/App';
import type { EmbeddedPage } from '../app/embedded-page';
import { headHtml, pageHead, scriptJson } from '../app/page-head';
import { pageUrl } from '../app/page-loading';
import { pageSource } from '../app/page-source';
import { matchPage, pageQueries, pageStatus } from '../app/routes';
import { type FormOutcome, PageData } from '../ui/page-data';
import { type BackendCalls, backendCalls, type Visitor, visitorIdentity } from './backend-calls';
import { type Change, changedShown } from './changes';
import { PublicAnswers, type PublicAnswersOptions } from './public-answers';
import { NO_RECORDER, type ServerRecorder } from './recorder';
import { CONSOLE_LOG, type ServerLog } from './server-log';

export { PAGE_DATA_ID } from '../app/embedded-page';
export { FORM_NAMES, FORMS, type FormAnswer, type FormHandler } from './forms';
export { backendCookieHeader, parseCookies, visitorIdentity } from './backend-calls';
export { robotsTxt, sitemapPaths } from '../app/sitemap';
/** Every variable of the theme, for the head of every page (the same on each). */
export { themeVariablesCss } from '../app/theme-variables';
// The rest of what the Node host (host/) uses of the app's code: it imports nothing of src/ but
// this entry (eslint.config.js holds it to that), so each module is loaded once, in the build.
export type { Visitor } from './backend-calls';
export type { FormOutcome } from '../ui/page-data';
export type { PublicAnswersOptions } from './public-answers';
export { type Change, changedShown, isReached, joinChanges, NO_CHANGE } from './changes';
export type { CallOutcome, ServerRecorder } from './recorder';
export { CONSOLE_LOG, type FailedCall, type ServerLog } from './server-log';
export { callPattern, shapeProblem } from '../api/answer-shapes';
export { PAGE_KINDS, RUM_MAX_SAMPLES, RUM_METRICS } from '../lib/rum-beacon';
export { sameOriginPath } from '../lib/same-origin-path';
export { IMAGE_ROUTE, IMAGE_VERSION, IMAGE_WIDTHS, OG_IMAGE, OG_WIDTH } from '../lib/image-url';
export { relativeMediaUrls } from '../lib/media-urls';
export { isJsonType } from '../api/json-type';
export { isShoppersOwnCall } from '../api/http';
export {
  expectedRefusal,
  FAILURE_CASE,
  OUTCOME_HEADER,
  statusOutcome,
  type FailedOutcome,
  type FailureCase,
} from '../api/call-failure';
export { DEFAULT_TIME_ZONE } from '../lib/shop-time-zone';
export { COOKIES, type ShopCookie } from '../lib/cookie-table';
export { clearCookieLine, isShopDomainCookie, setCookieLine } from './cookie-lines';

/** How this process reaches the backend: set once, at start (host/pages/render.ts). */
interface Connection {
  baseURL: () => string;
  fetch: typeof fetch;
  answers: PublicAnswers;
  recorder: ServerRecorder;
  log: ServerLog;
}
// Until createShopServer holds it (issue 42, item 4).
// eslint-disable-next-line no-restricted-syntax -- module state: the process's one backend
let connection: Connection | null = null;

/**
 * Where the server's calls go (the embedded stub, or the real backend's /api; read per request,
 * since the stub's port is known once the server listens), through which `fetch` (the bounded
 * agent), and how long the public answers are kept.
 */
export function connectBackend(options: {
  baseURL: () => string;
  fetch: typeof fetch;
  publicAnswers: PublicAnswersOptions;
  /** Told what the server's side does (backend calls, shared answers, forms); none counts nothing. */
  recorder?: ServerRecorder;
  /** Told of each failed call, for the operator; the console without one. */
  log?: ServerLog;
}): void {
  const recorder = options.recorder ?? NO_RECORDER;
  connection = {
    baseURL: options.baseURL,
    fetch: options.fetch,
    answers: new PublicAnswers(options.publicAnswers, recorder),
    recorder,
    log: options.log ?? CONSOLE_LOG,
  };
}

function connected(): Connection {
  if (!connection) throw new Error('entry-server: connectBackend() was not called');
  return connection;
}

/**
 * Marks the kept public answers a change reaches as outdated (host/backend/change-hook.ts): each is asked
 * for again at its next use, and stands in until the backend gives it. Returns how many.
 */
export function outdateAnswers(change: Change): number {
  return connected().answers.outdate(changedShown(change));
}

/** A request's calls to the backend as `visitor`, all ended within `budgetMs`. */
export function startCalls(visitor: Visitor, budgetMs: number): BackendCalls {
  const { baseURL, fetch, recorder, log } = connected();
  return backendCalls({ baseURL: baseURL(), fetch, recorder, log }, visitor, budgetMs);
}

export interface RenderRequest {
  /** The request's path and query, as sent. */
  url: string;
  /** `https://shop.example`, for canonical addresses and OpenGraph. */
  origin: string;
  cookieAccepted: boolean;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE), the browser's too. */
  timeZone: string;
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

/**
 * The visitor's basket. A newcomer gets their session (and its CSRF token) from this call, before
 * the page goes out: their first tap, made before the app's code arrives or just after, already
 * has what a change of the basket needs.
 */
async function loadBasketSeed({ api, visitor }: BackendCalls): Promise<BasketSeed> {
  if (visitorIdentity(visitor) !== null) {
    const [lines, amount_sum] = await Promise.all([getBasket(api), getTotalPrice(api)]);
    return { lines, amount_sum };
  }
  const lines = await getBasket(api);
  return { lines, amount_sum: Object.keys(lines).length > 0 ? await getTotalPrice(api) : 0 };
}

/** A basket with nothing in it: what a page for everyone shows. */
const EMPTY_BASKET: BasketSeed = { lines: {}, amount_sum: 0 };

/**
 * Runs the page's queries and loads the visitor's basket, each until the calls' deadline, which
 * ends every call still under way. Public data the backend did not give comes from its last good
 * answers. A 404 is kept (the page redirects, spec §8); any other failure too, by its case, and
 * the page says it could not load and why (the basket: the case instead), with `Повторить`.
 */
async function loadPage(
  url: string,
  calls: BackendCalls,
  outcome: FormOutcome,
  shared: boolean,
  freshSince: number | undefined,
): Promise<{ page: PageData; basket: BasketStart; standIn: boolean; shows: string[] }> {
  const { answers } = connected();
  const page = new PageData(url, {}, {}, outcome);
  let standIn = false;
  const shows = new Set<string>();
  let basket: BasketStart = shared ? EMPTY_BASKET : 'unreachable';
  const seedLoad = (shared ? Promise.resolve(EMPTY_BASKET) : loadBasketSeed(calls)).then(
    (seed) => {
      basket = seed;
    },
    (error: unknown) => {
      basket = failureCase(error);
    },
  );
  // A newcomer's session comes with the basket: the page's other calls wait for it, or each
  // would start a session of its own.
  const established = shared || visitorIdentity(calls.visitor) !== null ? undefined : seedLoad;
  const queryLoads = Promise.resolve(established).then(() =>
    Promise.all(
      pageQueries(url).map((query) =>
        answers.load(query, calls.api, freshSince).then(
          (loaded) => {
            page.answers[query.key] = loaded.value;
            standIn ||= loaded.standIn;
            for (const name of query.shows(loaded.value)) shows.add(name);
          },
          (error: unknown) => {
            // The page shows its error state, and `Повторить` (a form) asks again: without the
            // app, and before it runs, a page left loading would stay so.
            page.refused[query.key] = errorStatus(error) === 404 ? 404 : failureCase(error);
          },
        ),
      ),
    ),
  );
  // Every call ends by the deadline (the calls' signal), and so does every load: the last good
  // answers that stand in for the late ones are in before the page renders.
  await Promise.all([seedLoad, queryLoads]);
  return { page, basket, standIn, shows: [...shows] };
}

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
export async function renderPage(request: RenderRequest): Promise<RenderResult> {
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
    loadPage(url, request.calls, request.outcome ?? {}, request.shared, request.freshSince).finally(
      () => {
        backendWaitMs = performance.now() - waitStarted;
      },
    ),
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
    timeZone: request.timeZone,
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
          timeZone={request.timeZone}
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
