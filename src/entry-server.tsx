// The server's side of rendering: loads a page's public data through src/api (the route's
// loader table entry), renders it with React's streaming renderer and says what to answer.
// server/render.ts turns the result into the HTTP answer.
import type { Writable } from 'node:stream';
import { FetchError } from 'ofetch';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { SsrContext } from 'wouter';
import { getBasket, getTotalPrice } from './api/basket';
import { configureApi } from './api/http';
import type { BasketSeed } from './features/basket/store';
import { relativeMediaUrls } from './lib/media-urls';
import { setShopTimeZone } from './lib/shop-time-zone';
import { App } from './app/App';
import type { EmbeddedPage } from './app/embedded-page';
import { headHtml, pageHead, scriptJson } from './app/page-head';
import { pageUrl } from './app/page-loading';
import { matchPage, pageQueries } from './app/routes';
import { themeVariablesCss } from './app/theme-variables';
import { type FormOutcome, PageData } from './ui/page-data';
import { type BasketFormFields, changeBasketByForm } from './server/basket-form';
import { type CommitFormResult, placeOrderByForm } from './server/commit-form';
import { type LoginFormResult, logInByForm } from './server/login-form';
import {
  asVisitor,
  TOKEN_COOKIE,
  type Visitor,
  type VisitorAnswer,
  visitorIdentity,
  visitorOrigin,
} from './server/visitor-calls';

export { PAGE_DATA_ID } from './app/embedded-page';
export { type BasketFormFields } from './server/basket-form';
export { safeNextPage } from './features/session/safe-next-page';
export { TOKEN_COOKIE_DAYS, TOKEN_KEY } from './api/token';
export { visitorIdentity } from './server/visitor-calls';
export { sitemapPaths } from './app/sitemap';

/** Where the server's own API calls go: the embedded stub, or the real backend's /api. */
export function setApiBase(baseURL: string): void {
  // The server's calls go straight to the backend: the image URLs of its answers name the
  // backend's host, and the page shows them through the shop's /media.
  // A backend that honours X-Forwarded-Host names the shop's own address instead.
  const backend = new URL(baseURL).origin;
  configureApi({
    baseURL,
    readAnswer: (data) => relativeMediaUrls(data, [backend, visitorOrigin() ?? backend]),
  });
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
  /** Who asks: their basket and orders are loaded with their cookies. */
  visitor: Visitor;
  /** What the server says of a form the visitor posted without the app. */
  outcome?: FormOutcome;
}

export type RenderResult = {
  /** The backend's cookies for the visitor (a new session, its CSRF token): the answer's too. */
  setCookies: string[];
} & (
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
    }
);

/**
 * The visitor's basket. A newcomer gets their session (and its CSRF token) from this call, before
 * the page goes out: their first tap, made before the app's code arrives or just after, already
 * has what a change of the basket needs.
 */
async function loadBasketSeed(visitor: Visitor): Promise<BasketSeed> {
  if (visitorIdentity(visitor) !== null) {
    const [lines, amount_sum] = await Promise.all([getBasket(), getTotalPrice()]);
    return { lines, amount_sum };
  }
  const lines = await getBasket();
  return { lines, amount_sum: Object.keys(lines).length > 0 ? await getTotalPrice() : 0 };
}

/**
 * Runs the page's queries and loads the visitor's basket, each until the deadline. A 404 is kept
 * (the page redirects, spec §8); any other failure, or no answer in time, is left to the browser,
 * which loads it as a client-side page does.
 */
async function loadPage(
  url: string,
  timeoutMs: number,
  visitor: Visitor,
  outcome: FormOutcome,
): Promise<{ page: PageData; basket: BasketSeed | null }> {
  const page = new PageData(url);
  let basket: BasketSeed | null = null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  const seedLoad = loadBasketSeed(visitor).then(
    (seed) => {
      basket = seed;
    },
    () => {},
  );
  // A newcomer's session comes with the basket: the page's other calls wait for it, or each
  // would start a session of its own.
  const established = visitorIdentity(visitor) !== null ? Promise.resolve() : seedLoad;
  const queryLoads = established.then(() =>
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
  );
  await Promise.race([deadline, Promise.all([seedLoad, queryLoads])]);
  clearTimeout(timer);
  // Answers that arrive after the deadline must not change a page already rendering.
  return { page: new PageData(url, { ...page.answers }, { ...page.refused }, outcome), basket };
}

export async function renderPage(request: RenderRequest): Promise<RenderResult> {
  // Appended, not resolved: `//x/product/1` is that path here, as it is in the browser.
  const { pathname, search } = new URL(`http://localhost${request.url}`);
  const url = pageUrl(pathname, search);
  const match = matchPage(new URL(`http://localhost${url}`).pathname);
  const [
    {
      result: { page, basket },
      setCookies,
    },
  ] = await Promise.all([
    asVisitor(request.visitor, () =>
      loadPage(url, request.dataTimeoutMs, request.visitor, request.outcome ?? {}),
    ),
    match?.route.page.preload(),
  ]);
  const context: SsrContext = {};
  const embedded: EmbeddedPage = {
    url,
    answers: page.answers,
    refused: page.refused,
    cookieAccepted: request.cookieAccepted,
    timeZone: request.timeZone,
    basket,
    outcome: page.outcome,
  };
  setShopTimeZone(request.timeZone);
  return new Promise((resolve, reject) => {
    const stream = renderToPipeableStream(
      // The same tree as the browser's (src/main.tsx), so that useId agrees on both sides.
      <StrictMode>
        <App
          page={page}
          cookieAccepted={request.cookieAccepted}
          basket={basket}
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
        resolve({ kind: 'redirect', location: context.redirectTo, setCookies });
        return;
      }
      const status = context.statusCode ?? 200;
      const canonical = request.origin + pathname;
      resolve({
        kind: 'page',
        setCookies,
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

/**
 * A basket control's form, posted without the app: resolves with the message for the shopper
 * (null when the change landed) and the backend's cookies for the visitor.
 */
export async function postBasketForm(
  visitor: Visitor,
  fields: BasketFormFields,
): Promise<VisitorAnswer<string | null>> {
  return asVisitor(visitor, () => changeBasketByForm(fields));
}

/** The checkout form, posted without the app: the order placed, or the form to show again. */
export async function postCommitForm(
  visitor: Visitor,
  fields: Record<string, unknown>,
): Promise<VisitorAnswer<CommitFormResult>> {
  return asVisitor(visitor, () => placeOrderByForm(fields));
}

/**
 * The login form, posted without the app: the visitor's token, or the form to show again. A
 * token the visitor still carries is left out: the login must not be refused for an old one.
 */
export async function postLoginForm(
  visitor: Visitor,
  fields: Record<string, unknown>,
): Promise<VisitorAnswer<LoginFormResult>> {
  const cookies = { ...visitor.cookies };
  delete cookies[TOKEN_COOKIE];
  return asVisitor({ ...visitor, cookies }, () => logInByForm(fields));
}
