// Pages as HTML: the route's data and React's render (src/server-entry/entry-server.tsx) poured into the
// build's index.html (host/page-assets.ts) with its data embedded for hydration.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { NextFunction, Request, Response } from 'express';
import type { ViteDevServer } from 'vite';
import type { FormOutcome, PublicAnswersOptions } from '../src/server-entry/entry-server.tsx';
import { type Entry, sourceEntry } from './app-entry.ts';
import { readPageAssets } from './page-assets.ts';
import { NOTICE_COOKIE, passCookies, requestCookies, visitorOf } from './visitor.ts';

/** What a page's HTML needs from the build, beyond the template. */
interface Build {
  template: string;
  /** The page's stylesheets and scripts for its `<head>` (none in dev: Vite serves them). */
  pageHead(pageSource: string | undefined): string;
}

export interface PageRendererOptions {
  /** Where the server's API calls go (`http://127.0.0.1:3000/api`); read per request. */
  apiBase: () => string;
  /** `fetch` through the bounded agent to the backend (host/backend-agent.ts). */
  backendFetch: typeof fetch;
  /** How long the public answers pages render from are kept (src/server-entry/public-answers.ts). */
  publicAnswers: PublicAnswersOptions;
  /** The public origin for canonical addresses; default: the request's own. */
  siteUrl?: string;
  dataTimeoutMs: number;
  /** How long nginx or a CDN may keep a public page before it asks again (PAGE_CACHE_SECONDS). */
  pageCacheSeconds: number;
  /** SHOP_TIME_ZONE: order dates on the server and in the browser. */
  timeZone: string;
}

/** A form posted without the app that must be shown again (host/visitor-forms.ts). */
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
  entry(): Promise<Entry>;
  /** CSP sources of the inline scripts pages carry (none in dev, which sends no policy). */
  scriptHashes: string[];
  handle(req: Request, res: Response, next: NextFunction): void;
  /** The page of the request, with a posted form shown again on it. */
  render(req: Request, res: Response, posted?: PostedForm): Promise<void>;
}

/** The request's own origin, or a neutral one when its Host header is not a host. */
export function requestOrigin(req: Request): string {
  try {
    return new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}`).origin;
  } catch {
    return 'http://localhost';
  }
}

/** The cookie mirror of the theme the app keeps in local storage (src/app/theme-storage.ts). */
export const THEME_COOKIE = 'theme';

/**
 * Whether the first cookie `name` in the request's Cookie header is exactly `value`: no other
 * letter case, quotes or %-escapes, and only spaces or tabs between cookies (JavaScript's \s
 * takes a no-break space too, nginx's does not). deploy/nginx.conf reads the theme and the cookie
 * notice with this same pattern for its cache key, and puts them first in a public request's
 * Cookie header, so a kept page is always the variant its key names.
 */
export function firstCookieIs(req: Request, name: string, value: string): boolean {
  return new RegExp(`^(?:(?![ \\t]*${name}=)[^;]*;)*[ \\t]*${name}=${value}(?:;|$)`).test(
    req.headers.cookie ?? '',
  );
}

/** The theme the visitor chose, as its cookie mirror says; light when there is none. */
export function themeOf(req: Request): 'light' | 'dark' {
  return firstCookieIs(req, THEME_COOKIE, 'dark') ? 'dark' : 'light';
}

/**
 * A page for everyone. A browser keeps it but asks again before each use (max-age=0,
 * must-revalidate: no stale window of its own, which Firefox would use to show an old theme,
 * notice or basket), and its ETag makes that question a 304 when nothing changed. nginx keeps it
 * for `seconds` (s-maxage, which it reads over max-age; it would keep nothing marked no-cache).
 * A CDN reads its own header (CDN-Cache-Control, RFC 9213): the same lifetime, and served stale
 * while it is renewed or while the instances fail.
 */
function publicPageCaching(seconds: number): Record<string, string> {
  return {
    'Cache-Control': `public, max-age=0, must-revalidate, s-maxage=${seconds}`,
    'CDN-Cache-Control': `max-age=${seconds}, stale-while-revalidate=600, stale-if-error=86400`,
  };
}

/**
 * Keeps the basket's cookie (src/features/basket/basket-form.ts) true to the basket the page
 * showed: set when it has lines, cleared when it has none. Left as it is when the basket was not
 * loaded.
 */
export function markBasket(
  res: Response,
  cookies: Record<string, string>,
  lines: number | null,
  { name, days }: { name: string; days: number },
): void {
  if (lines === null || lines > 0 === Boolean(cookies[name])) return;
  if (lines === 0) res.clearCookie(name, { path: '/', sameSite: 'lax' });
  else res.cookie(name, '1', { maxAge: days * 24 * 60 * 60 * 1000, path: '/', sameSite: 'lax' });
}

/** The message a form left for this page (host/visitor-forms.ts), shown once. */
function readNotice(entry: Entry, req: Request, res: Response): string | undefined {
  const raw = requestCookies(entry, req)[NOTICE_COOKIE];
  if (raw === undefined) return undefined;
  res.clearCookie(NOTICE_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
  try {
    return decodeURIComponent(raw).slice(0, 500);
  } catch {
    return undefined;
  }
}

/** A page's HTML around what its request adds (its head's meta, the app, its data), as bytes. */
interface PageBytes {
  /** Up to the page's own head: the template's start, the visitor's theme on the html element. */
  start: Buffer;
  /** After the page's own head: the theme's variables, the page's styles and start script, the
   *  template up to the app. */
  head: Buffer;
  /** From the app to its data. */
  beforeData: Buffer;
  end: Buffer;
}

/**
 * What every page of a theme and a page module has in common (some 80 KB: the inline styles, the
 * theme's variables), made into bytes once per build rather than on every request.
 */
const pageBytesCache = new WeakMap<Build, Map<string, PageBytes>>();

function pageBytes(
  entry: Entry,
  build: Build,
  theme: 'light' | 'dark',
  pageSource: string | undefined,
): PageBytes {
  let cache = pageBytesCache.get(build);
  if (!cache) pageBytesCache.set(build, (cache = new Map()));
  const key = `${theme} ${pageSource ?? ''}`;
  let bytes = cache.get(key);
  if (!bytes) {
    // The stored theme is on the html element from the first byte: no flash of the light one,
    // with JavaScript or without.
    const html = build.template.replace(
      'data-mantine-color-scheme="light"',
      `data-mantine-color-scheme="${theme}"`,
    );
    const [start = '', end = ''] = html.split('<!--app-html-->');
    const [beforeHead = '', afterHead = ''] = start.split('<!--app-head-->');
    const [beforeData = '', afterData = ''] = end.split('<!--app-data-->');
    const head = [`<style>${entry.themeVariablesCss()}</style>`, build.pageHead(pageSource)]
      .filter(Boolean)
      .map((part) => `\n    ${part}`)
      .join('');
    bytes = {
      start: Buffer.from(beforeHead),
      head: Buffer.from(head + afterHead),
      beforeData: Buffer.from(beforeData),
      end: Buffer.from(afterData),
    };
    cache.set(key, bytes);
  }
  return bytes;
}

function renderer(
  options: PageRendererOptions,
  load: (url: string) => Promise<{ entry: Entry; build: Build }>,
  scriptHashes: string[] = [],
): PageRenderer {
  const render = async (req: Request, res: Response, posted?: PostedForm) => {
    const { entry, build } = await load(req.originalUrl);
    const cookies = requestCookies(entry, req);
    // Nothing of their own to see (no basket, no login, no message of a form): the page is the
    // same for everyone, with their theme and cookie notice, and a shared cache may keep it.
    const shared =
      !posted &&
      entry.isPublicPage(req.originalUrl) &&
      ![entry.TOKEN_COOKIE, entry.BASKET_MARK.name, NOTICE_COOKIE].some((name) => cookies[name]);
    const notice = readNotice(entry, req, res);
    passCookies(res, posted?.setCookies ?? []);
    const visitor = visitorOf(entry, req);
    const calls = entry.startCalls(
      // A page for everyone is asked for as nobody in particular.
      { ...visitor, cookies: shared ? {} : (posted?.cookies ?? visitor.cookies) },
      Math.min(options.dataTimeoutMs, posted?.budgetMs ?? Infinity),
    );
    let result: Awaited<ReturnType<Entry['renderPage']>>;
    try {
      result = await entry.renderPage({
        url: req.originalUrl,
        origin: options.siteUrl ?? requestOrigin(req),
        cookieAccepted: firstCookieIs(req, 'cookieAccepted', 'true'),
        timeZone: options.timeZone,
        calls,
        shared,
        outcome: posted?.outcome ?? (notice ? { notice } : {}),
      });
    } finally {
      // The page has its data (or goes out without it): no call of it outlives it.
      calls.end();
    }
    passCookies(res, result.setCookies);
    markBasket(res, cookies, result.basketLines, entry.BASKET_MARK);
    // Decided here, once, after everything that may set a cookie has run (the notice read, the
    // backend's and the form's cookies, the basket's mark). A visitor's own page shows their
    // basket (the price button, the menu), and some their orders or what they typed: no cache may
    // keep it or hand it to another visitor. An answer that sets a cookie is its visitor's alone
    // too: a CDN would hand the cookie to everyone. A page missing part of its data is no cache's
    // either: nginx goes on serving its last whole copy instead.
    const keepable =
      shared &&
      result.kind === 'page' &&
      result.status === 200 &&
      result.complete &&
      !res.hasHeader('Set-Cookie');
    res.set(
      keepable
        ? publicPageCaching(options.pageCacheSeconds)
        : { 'Cache-Control': 'private, no-store' },
    );
    if (result.kind === 'redirect') {
      res.redirect(302, result.location);
      return;
    }
    const page = pageBytes(entry, build, themeOf(req), result.pageSource);
    const data = `<script id="${entry.PAGE_DATA_ID}" type="application/json">${result.embedded}</script>`;
    // The page is whole before its first byte (renderPage waits for every part), so it goes out
    // as one write: compressed in one piece rather than in React's 2 KB chunks, each a call to
    // zlib of its own. A render that fails on the way rejects here, before any header is sent.
    const body = new PassThrough();
    result.pipe(body);
    const app = await buffer(body);
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
    // Of the page's own bytes, before compression (so weak: the same page in any encoding). A
    // browser that still has these bytes gets a 304 without them.
    res.set('ETag', `W/"${createHash('sha1').update(html).digest('base64url')}"`);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.end(html);
  };
  return {
    scriptHashes,
    entry: async () => (await load('/')).entry,
    handle: (req, res, next) => {
      render(req, res).catch(next);
    },
    render,
  };
}

/** Hands the entry its connection to the backend, once per module instance. */
function connector(options: PageRendererOptions): (entry: Entry) => Entry {
  const connected = new WeakSet<Entry>();
  return (entry) => {
    if (!connected.has(entry)) {
      entry.connectBackend({
        baseURL: options.apiBase,
        fetch: options.backendFetch,
        publicAnswers: options.publicAnswers,
      });
      connected.add(entry);
    }
    return entry;
  };
}

/** The production build: dist/client (template, manifest) and its entry (host/app-entry.ts). */
export async function buildRenderer(
  distDir: string,
  entry: Entry,
  options: PageRendererOptions,
): Promise<PageRenderer> {
  const build = await readPageAssets(path.join(distDir, 'client'));
  connector(options)(entry);
  return renderer(options, async () => ({ entry, build }), build.scriptHashes);
}

/** `npm run dev`: the source through Vite, fresh on every request. */
export function devRenderer(
  vite: ViteDevServer,
  indexFile: string,
  options: PageRendererOptions,
): PageRenderer {
  const connect = connector(options);
  return renderer(options, async (url) => {
    const raw = await readFile(indexFile, 'utf8');
    const template = await vite.transformIndexHtml(url, raw);
    const entry = connect(await sourceEntry(vite));
    return { entry, build: { template, pageHead: () => '' } };
  });
}
