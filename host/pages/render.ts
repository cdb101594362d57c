// Pages as HTML: the route's data and React's render (src/server-entry/entry-server.tsx) poured into the
// build's index.html (host/pages/page-assets.ts) with its data embedded for hydration.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { NextFunction, Request, Response } from 'express';
import type { ViteDevServer } from 'vite';
import type { FormOutcome, ShopServer } from '../../src/server-entry/entry-server.tsx';
import { type Entry, sourceEntry } from '../app-entry.ts';
import { readPageAssets } from './page-assets.ts';
import { pageBytes } from './page-bytes.ts';
import { isSharedPage, sendPage, setPageCaching } from './page-caching.ts';
import { type KeptPage, type PageRenewal, RENEW_HEADER, STAND_IN_HEADER } from './page-renewal.ts';
import { requestOf } from '../process/request-log.ts';
import { requestOrigin } from '../process/request-scheme.ts';
import { shopCookies } from '../forms/shop-cookies.ts';
import { passCookies, requestCookies, visitorOf } from '../forms/visitor.ts';

/** What a page's HTML needs from the build, beyond the template. */
interface Build {
  template: string;
  /** The page's stylesheets and scripts for its `<head>` (none in dev: Vite serves them). */
  pageHead(pageSource: string | undefined): string;
}

/** The app's code (its entry's exports) and its server side for this process (createShopServer). */
export interface Served {
  entry: Entry;
  shop: ShopServer;
}

export interface PageRendererOptions {
  /** The public origin for canonical addresses; default: the request's own. */
  siteUrl?: string;
  dataTimeoutMs: number;
  /** How long nginx or a CDN may keep a public page before it asks again (PAGE_CACHE_SECONDS). */
  pageCacheSeconds: number;
  /** Told of each page: its route, how long it waited for the backend, and then rendered. */
  pageTimed?: (route: string, backendWaitMs: number, renderMs: number) => void;
  /** Whether pages say their backend wait and render in Server-Timing (SERVER_TIMING). */
  serverTiming?: boolean;
  /** The share of views whose browser reports its speed to /rum (RUM_SAMPLE). */
  rumSample?: number;
  /** The renewal of kept pages after a change: told of each page nginx will keep. */
  renewal?: Pick<PageRenewal, 'kept'>;
}

/** The encodings nginx asks an instance for ($page_encoding), and so keeps a page under. */
const NGINX_ENCODINGS = new Set(['', 'gzip', 'br']);

/** A renewal's time (RENEW_HEADER): answers older than it are asked for again. */
function freshSince(req: Request): number | undefined {
  const raw = req.get(RENEW_HEADER);
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

type RenderResult = Awaited<ReturnType<ShopServer['renderPage']>>;

/** A page's render: React's result, and the app's markup whole (none for a redirect). */
interface Rendered {
  /** Its `pipe` already used: the markup is `app`. */
  result: RenderResult;
  app: Buffer;
}

/**
 * How long a renewal's render waits for the backend. Nobody waits for it (nginx serves its copy
 * meanwhile), so answers that come too late for a shopper's page (SSR_DATA_TIMEOUT_MS) still
 * renew it, rather than fail it and leave it to a retry seconds later. Well within nginx's 30 s
 * proxy_read_timeout on the renewing listener (deploy/nginx.conf).
 */
const RENEWAL_DATA_TIMEOUT_MS = 10_000;

/** How long a renewal's render serves the page's other variants. */
const RENEWAL_RENDER_MS = 10_000;

/**
 * A change renews each page it reaches in every variant nginx keeps: 2 themes × 2 cookie notices
 * × 3 encodings. The app's markup is the same across themes (the template carries the theme) and
 * encodings, so the variants of one renewal (one address, notice and renewal time) that reach an
 * instance share its render: 12 renders of a page become 2 per instance. Only a render nginx may
 * keep (whole, from the backend's answers) is shared, and only for a few seconds: a renewal that
 * failed renders again when it is tried again, and a newer change asks with a newer time.
 */
function sharedRenders() {
  const renders = new Map<string, Promise<Rendered>>();
  return (key: string, produce: () => Promise<Rendered>): Promise<Rendered> => {
    const known = renders.get(key);
    if (known) return known;
    const render = produce();
    renders.set(key, render);
    const forget = () => renders.delete(key);
    render.then(({ result }) => {
      const whole =
        result.kind === 'redirect' || (result.status === 200 && result.complete && !result.standIn);
      if (whole) setTimeout(forget, RENEWAL_RENDER_MS).unref();
      else forget();
    }, forget);
    return render;
  };
}

/** A form posted without the app that must be shown again (host/forms/visitor-forms.ts). */
export interface PostedForm {
  outcome: FormOutcome;
  /** The backend's cookies set while the form was handled, for the answer. */
  setCookies: string[];
  /** The visitor's cookies after the form's calls (a newcomer's new session): the page's. */
  cookies: Record<string, string>;
  /** What is left of the form's budget for the page's own calls. */
  budgetMs: number;
}

export interface PageRenderer {
  /** The app's code and server side: in development, the source as it is now. */
  served(): Promise<Served>;
  /** CSP sources of the inline scripts pages carry (none in dev, which sends no policy). */
  scriptHashes: string[];
  handle(req: Request, res: Response, next: NextFunction): void;
  /** The page of the request, with a posted form shown again on it. */
  render(req: Request, res: Response, posted?: PostedForm): Promise<void>;
}

function renderer(
  options: PageRendererOptions,
  load: (url: string) => Promise<Served & { build: Build }>,
  scriptHashes: string[] = [],
): PageRenderer {
  const renewalRenders = sharedRenders();
  const render = async (req: Request, res: Response, posted?: PostedForm) => {
    const started = performance.now();
    const { entry, shop, build } = await load(req.originalUrl);
    const cookies = requestCookies(entry, req);
    const { cookieAcceptedBy, hasOwnCookies, markBasket, takeNotice, themeOf } = shopCookies(entry);
    // Nothing of their own to see (no basket, no login, no message of a form): the page is the
    // same for everyone, with their theme and cookie notice, and a shared cache may keep it.
    const shared = isSharedPage(
      entry.isPublicPage(req.originalUrl),
      hasOwnCookies(cookies),
      posted !== undefined,
    );
    const notice = takeNotice(req, res);
    passCookies(res, posted?.setCookies ?? []);
    const visitor = visitorOf(entry, req);
    const cookieAccepted = cookieAcceptedBy(req);
    const origin = options.siteUrl ?? requestOrigin(req);
    const since = shared ? freshSince(req) : undefined;
    /** Whether this request rendered its page, or had a renewal's render (sharedRenders). */
    let rendered = false;
    const produce = async (): Promise<Rendered> => {
      rendered = true;
      const calls = shop.startCalls(
        // A page for everyone is asked for as nobody in particular.
        { ...visitor, cookies: shared ? {} : (posted?.cookies ?? visitor.cookies) },
        since === undefined
          ? Math.min(options.dataTimeoutMs, posted?.budgetMs ?? Infinity)
          : Math.max(options.dataTimeoutMs, RENEWAL_DATA_TIMEOUT_MS),
      );
      let result: RenderResult;
      try {
        result = await shop.renderPage({
          url: req.originalUrl,
          origin,
          cookieAccepted,
          calls,
          shared,
          outcome: posted?.outcome ?? (notice ? { notice } : {}),
          freshSince: since,
          rumSample: options.rumSample,
        });
      } finally {
        // The page has its data (or goes out without it): no call of it outlives it.
        calls.end();
      }
      if (result.kind === 'redirect') return { result, app: Buffer.alloc(0) };
      // The page is whole before its first byte (renderPage waits for every part), so it goes
      // out as one write: compressed in one piece rather than in React's 2 KB chunks, each a
      // call to zlib of its own. A render that fails on the way rejects here, before any header
      // is sent.
      const body = new PassThrough();
      result.pipe(body);
      return { result, app: await buffer(body) };
    };
    const { result, app } =
      since !== undefined && !notice
        ? await renewalRenders(`${origin} ${req.originalUrl} ${cookieAccepted} ${since}`, produce)
        : await produce();
    passCookies(res, result.setCookies);
    markBasket(req, res, cookies, result.basketLines);
    const keepable = setPageCaching(
      res,
      {
        shared,
        // A redirect to a -404 page (the product is gone) is everyone's too, and replaces the
        // kept copy of the page that showed it.
        whole:
          result.kind === 'redirect' ||
          (result.kind === 'page' && result.status === 200 && result.complete),
      },
      options.pageCacheSeconds,
    );
    if (result.standIn) res.set(STAND_IN_HEADER, 'kept');
    // nginx keeps it: the renewal must know it is there, under which key, and what it shows.
    const accepted = req.get('accept-encoding') ?? '';
    const kept = (): KeptPage | null =>
      keepable && NGINX_ENCODINGS.has(accepted)
        ? {
            scheme: req.protocol,
            host: req.get('host') ?? '',
            url: req.originalUrl,
            theme: themeOf(req),
            accepted: cookieAccepted,
            encoding: accepted as KeptPage['encoding'],
            shows: result.shows,
          }
        : null;
    const timed = () => {
      // The page's own time: from the request's context, a form's handling before it is not.
      const context = requestOf(req);
      const backendWaitMs = result.backendWaitMs;
      const renderMs = Math.max(0, performance.now() - started - backendWaitMs);
      context.backendWaitMs = backendWaitMs;
      context.renderMs = renderMs;
      if (rendered) options.pageTimed?.(result.route ?? '(not found)', backendWaitMs, renderMs);
      // DevTools and the shopper's TTFB then tell the server's time from the network's.
      if (options.serverTiming) {
        res.set(
          'Server-Timing',
          `backend;desc="backend wait";dur=${backendWaitMs.toFixed(1)}, render;dur=${renderMs.toFixed(1)}`,
        );
      }
    };
    if (result.kind === 'redirect') {
      timed();
      const page = kept();
      if (page) options.renewal?.kept(page);
      res.redirect(302, result.location);
      return;
    }
    const page = pageBytes(entry, build, themeOf(req), result.pageSource);
    const data = `<script id="${entry.PAGE_DATA_ID}" type="application/json">${result.embedded}</script>`;
    const html = Buffer.concat([
      page.start,
      Buffer.from(result.head),
      page.head,
      app,
      page.beforeData,
      Buffer.from(data),
      page.end,
    ]);
    res.status(result.status);
    res.set('Content-Type', 'text/html; charset=utf-8');
    timed();
    const keptPage = kept();
    if (keptPage) options.renewal?.kept(keptPage);
    sendPage(req, res, html);
  };
  return {
    scriptHashes,
    served: async () => {
      const { entry, shop } = await load('/');
      return { entry, shop };
    },
    handle: (req, res, next) => {
      render(req, res).catch(next);
    },
    render,
  };
}

/** The production build: dist/client (template, manifest), its entry and server side. */
export async function buildRenderer(
  distDir: string,
  served: Served,
  options: PageRendererOptions,
): Promise<PageRenderer> {
  const build = await readPageAssets(path.join(distDir, 'client'));
  return renderer(options, async () => ({ ...served, build }), build.scriptHashes);
}

/**
 * `npm run dev`: the source through Vite, fresh on every request. A new instance of the entry
 * (after an edit) gets a server side of its own from `createShop`; the first is `first`'s.
 */
export function devRenderer(
  vite: ViteDevServer,
  indexFile: string,
  first: Served,
  createShop: (entry: Entry) => ShopServer,
  options: PageRendererOptions,
): PageRenderer {
  const shops = new WeakMap<Entry, ShopServer>([[first.entry, first.shop]]);
  const shopOf = (entry: Entry): ShopServer => {
    const known = shops.get(entry);
    if (known) return known;
    const shop = createShop(entry);
    shops.set(entry, shop);
    return shop;
  };
  return renderer(options, async (url) => {
    const raw = await readFile(indexFile, 'utf8');
    const template = await vite.transformIndexHtml(url, raw);
    const entry = await sourceEntry(vite);
    return { entry, shop: shopOf(entry), build: { template, pageHead: () => '' } };
  });
}
