// One page of the shop as one declaration (defineRoute), written beside the page in its feature
// folder: its address, its params typed from that address, the data the page shows (what its
// first paint needs, and what can follow), its texts and head typed from that data, its cache
// policy, and its page module. src/app/routes.tsx lists them. The page receives its data as props
// and imports nothing from its route; the route decides the status (a redirect, a 404) from the
// data before anything renders.
import { type ComponentType, lazy, type ReactNode, useEffect } from 'react';
import type { RouteParams } from 'regexparam';
import type { FailureCase } from '../api/call-failure';
import { Redirect as Redirected } from 'wouter';
import { type PageTexts, showPageTexts } from '../lib/document-head';
import { SHOP_DESCRIPTION } from '../lib/shop-info';
import { ErrorState } from './ErrorState';
import { Loaded } from './Loaded';
import { NotFound } from './NotFound';
import { type Answers, answersOf, hasAll, type Queries, type Query } from './page-data';
import { PageSkeleton } from './PageSkeleton';
import { type Load, type LoadStates, useLoads } from './useLoads';

/** The params of an address pattern, typed from its literal: `/product/:id` has `{ id: string }`. */
export type Params<P extends string> = RouteParams<P>;

type NoQueries = Record<never, never>;

/**
 * A route's data at an address. `critical`: what the page's first paint needs (its title, its
 * heading): the page draws once it is in, and a 404 answer of it is the page's status. `deferred`:
 * what can follow, which the page draws in place as it comes (`<Loaded>`). The server loads both
 * before it renders (crawlers, and shoppers without JavaScript, get the whole page); a navigation
 * in the app shows the page as soon as the critical data is in.
 */
export interface RouteData<C extends Queries = NoQueries, D extends Queries = NoQueries> {
  critical?: C;
  deferred?: D;
  /** Where a 404 answer of a critical query sends the shopper (spec §8); else the 404 page. */
  missing?: string;
}

/** A status the address alone decides, before any call: the shopper is sent to `location`. */
export interface Redirect {
  redirect: string;
}

export const redirectTo = (location: string): Redirect => ({ redirect: location });

function isRedirect(data: object): data is Redirect {
  return 'redirect' in data;
}

/** A route's data at an address, each part there (an empty one: no queries). */
interface Decided<C extends Queries, D extends Queries> {
  critical: C;
  deferred: D;
  missing?: string;
}

/**
 * What a page receives: each critical answer by its query's name, each deferred query's load
 * state (`<Loaded>` draws it), and `reload` to ask for the critical data again.
 */
export type PageProps<C extends Queries = NoQueries, D extends Queries = NoQueries> = Answers<C> &
  LoadStates<D> & { reload: () => void };

/** What a page's `Failed` receives: the retry, and the failure's case (ui/failure-text.ts). */
export interface FailedProps {
  onRetry: () => void;
  failure: FailureCase;
}

/**
 * A page module: the page, and what shows while its critical data loads (`Pending`) or when it
 * did not (`Failed`, with `Повторить`). Without them: the shop's page skeleton, and its error.
 */
export interface PageModule<Props> {
  default: ComponentType<Props>;
  Pending?: ComponentType;
  Failed?: ComponentType<FailedProps>;
}

export interface Page<M = { default: unknown }> {
  /** Loads the page's code (Vite makes each page module its own chunk), once. */
  preload(): Promise<M>;
}

/** The page module's parts, each drawn as soon as the module is there. */
interface LazyPage<Props> extends Page<PageModule<Props>> {
  Component: ComponentType<Props>;
  Pending: ComponentType;
  Failed: ComponentType<FailedProps>;
}

/**
 * A page whose code loads on demand. Once loaded (preload() before the first render, or a first
 * visit), its parts render in the same pass: React gets the module synchronously instead of
 * showing the skeleton, and hydration finds the page the server rendered.
 */
function lazyPage<Props>(load: () => Promise<PageModule<Props>>): LazyPage<Props> {
  let loaded: PageModule<Props> | undefined;
  let loading: Promise<PageModule<Props>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  // React's lazy reads a thenable that resolves synchronously as already resolved.
  const part = <Q,>(pick: (module: PageModule<Props>) => ComponentType<Q>) =>
    lazy(() => {
      const now = loaded;
      if (!now) return preload().then((module) => ({ default: pick(module) }));
      type Loaded = { default: ComponentType<Q> };
      return {
        then: (resolve: (value: Loaded) => void) => resolve({ default: pick(now) }),
      } as Promise<Loaded>;
    });
  return {
    preload,
    Component: part((module) => module.default),
    Pending: part((module) => module.Pending ?? PageSkeleton),
    Failed: part((module) => module.Failed ?? ErrorState),
  };
}

/** A text of the page: fixed, or made from its critical answers. */
type PageText<C extends Queries> = string | ((answers: Answers<C>) => string);

/**
 * 'public': the same page for everyone who has nothing of their own to see (no basket, no
 * login), which a shared cache may keep; 'private': the visitor's own (their basket, orders).
 */
export type CachePolicy = 'public' | 'private';

/** What only crawlers and link previews read of a page, besides its texts (src/app/page-head.ts). */
export interface HeadExtras {
  /** Site-absolute path, or absolute URL. */
  image: string;
  type: 'website' | 'product';
  jsonLd: object[];
}

/** Where a page is served: its site's origin and its own path. */
export interface PageAddress {
  origin: string;
  path: string;
}

/** What the server alone reads of a route: its head, robots.txt and the sitemap, Cache-Control. */
export interface ServerSide<Q extends Queries> {
  /**
   * Its OpenGraph picture and JSON-LD (the catalogue's builders: features/catalog/heads.ts), from
   * the answers the page rendered with (those the server got). Without one, or undefined: the
   * shop's picture, no JSON-LD.
   */
  head?: (answers: Partial<Answers<Q>>, address: PageAddress) => HeadExtras | undefined;
  /**
   * Worth a search engine's index: a canonical address and a place in the sitemap; else
   * noindex, and robots.txt's Disallow.
   */
  indexable: boolean;
  cache: CachePolicy;
}

/**
 * Whether this is the server's build. The browser's has it false, and leaves each route's
 * `server: SERVER && {…}` (its head builders with it) out of its JS.
 */
export const SERVER = import.meta.env.SSR;

export interface RouteSpec<P extends string, C extends Queries, D extends Queries> {
  /** A wouter pattern (from src/lib/paths.ts): `:name` segments, any case, an optional slash. */
  path: P;
  /**
   * The public data the page shows, from the address's params and query: loaded by the server,
   * or by a navigation in the app before the page's code arrives; or a redirect the address
   * alone decides. None: the page loads nothing. Its params are written `Params<typeof pattern>`
   * (TypeScript infers the data from this function only when its parameter has a type), and it
   * comes before `page`, which is typed from it.
   */
  data?: (params: Params<P>, search: URLSearchParams) => RouteData<C, D> | Redirect;
  /** The page's part of the document title, after «Ягодная лавка — » (spec §2). */
  title: PageText<NoInfer<C>>;
  /** The description meta; the shop's own when the page has none. */
  description?: PageText<NoInfer<C>>;
  /** The page's module, as `() => import('./ThePage')`: its page takes this data as props. */
  page: () => Promise<PageModule<PageProps<NoInfer<C>, NoInfer<D>>>>;
  /** False in the browser's build: write it `SERVER && {…}`. */
  server: ServerSide<NoInfer<C> & NoInfer<D>> | false;
}

/** A route at one address: what it loads, the status it decides, its texts and head. */
export interface OpenedRoute {
  /** Decided by the address alone: no call is made, nothing renders. */
  redirect: string | undefined;
  /** Every query the page shows: the critical ones and those that can follow. */
  queries: Query<unknown>[];
  /** Those whose 404 answer is the page's status. */
  critical: Query<unknown>[];
  /** Where a 404 answer of a critical query sends the shopper; undefined: the 404 page. */
  missing: string | undefined;
  /** Undefined while a text is made from answers that are not all there (`answerOf`). */
  texts(answerOf: (query: Query<unknown>) => unknown): PageTexts | undefined;
  /** The route's head builder's part (undefined: it has none, or not for these answers). */
  head(answerOf: (query: Query<unknown>) => unknown, address: PageAddress): HeadExtras | undefined;
}

/** The texts of a page from its critical answers; undefined while they are not all there. */
function textsOf<C extends Queries>(
  { title, description = SHOP_DESCRIPTION }: { title: PageText<C>; description?: PageText<C> },
  critical: C,
  answers: Partial<Answers<C>>,
): PageTexts | undefined {
  if (typeof title === 'string' && typeof description === 'string') return { title, description };
  if (!hasAll(answers, critical)) return undefined;
  const text = (made: PageText<C>) => (typeof made === 'string' ? made : made(answers));
  return { title: text(title), description: text(description) };
}

/** The critical queries' states as one: loading, failed, or all their answers. */
function together<C extends Queries>(states: LoadStates<Queries>, critical: C): Load<Answers<C>> {
  const loads = Object.keys(critical).map((name) => states[name] as Load<unknown>);
  const reload = () => {
    for (const load of loads) load.reload();
  };
  const failed = loads.find((load) => load.status === 'error');
  if (failed) return { ...failed, reload };
  if (loads.some((load) => load.status === 'loading')) return { status: 'loading', reload };
  const data = Object.fromEntries(Object.keys(critical).map((name) => [name, states[name]?.data]));
  // Each answer is its query's: a load settles under its query's key (useLoads).
  return { status: 'done', data: data as Answers<C>, reload };
}

/**
 * Declares a page: `data`'s answers type its texts, head and page props, and `path` types the
 * params `data` reads; a title reading a field the data does not have fails `npm run typecheck`
 * (tests/types/route-texts.ts).
 */
export function defineRoute<
  P extends string,
  C extends Queries = NoQueries,
  D extends Queries = NoQueries,
>(spec: RouteSpec<P, C, D>) {
  const page = lazyPage(spec.page);
  const none: Decided<C, D> = { critical: {} as C, deferred: {} as D };
  // The router matched this route's own pattern, so the params are the ones its path names.
  const decide = (
    params: Record<string, string | undefined>,
    search: URLSearchParams,
  ): Decided<C, D> | Redirect => {
    const data = spec.data?.(params as Params<P>, search);
    if (!data) return none;
    if (isRedirect(data)) return data;
    return { ...none, ...data };
  };

  /** The page at an address: its status decided, then its critical data, then the page. */
  function RoutePage({ decided }: { decided: Decided<C, D> }) {
    const { critical, deferred, missing } = decided;
    const states = useLoads<Queries>({ ...critical, ...deferred });
    const first = together(states, critical);
    const answers = first.status === 'done' ? first.data : {};
    const texts = textsOf(spec, critical, answers);
    const title = texts?.title;
    const description = texts?.description;
    useEffect(() => {
      if (title !== undefined && description !== undefined) showPageTexts({ title, description });
    }, [title, description]);

    if (first.status === 'error' && first.httpStatus === 404) {
      return missing ? <Redirected to={missing} replace /> : <NotFound />;
    }
    const { Component, Pending, Failed } = page;
    const later = Object.fromEntries(Object.keys(deferred).map((name) => [name, states[name]]));
    return (
      <Loaded
        load={first}
        pending={<Pending />}
        failed={(retry, failure) => <Failed onRetry={retry} failure={failure} />}
      >
        {(data) => {
          // The page's props are its route's: the critical answers, the deferred loads by name.
          const props = { ...data, ...later, reload: first.reload } as PageProps<C, D>;
          return <Component {...props} />;
        }}
      </Loaded>
    );
  }

  return {
    path: spec.path,
    title: spec.title,
    description: spec.description,
    server: spec.server,
    page,
    /** What the route is at an address (for the server, a navigation and the title). */
    open(params: Record<string, string | undefined>, search: URLSearchParams): OpenedRoute {
      const decided = decide(params, search);
      if (isRedirect(decided)) {
        return {
          redirect: decided.redirect,
          queries: [],
          critical: [],
          missing: undefined,
          texts: () => undefined,
          head: () => undefined,
        };
      }
      const { critical, deferred, missing } = decided;
      const all = { ...critical, ...deferred };
      return {
        redirect: undefined,
        queries: Object.values(all),
        critical: Object.values(critical),
        missing,
        texts: (answerOf) => textsOf(spec, critical, answersOf(critical, answerOf)),
        head: (answerOf, address) =>
          spec.server ? spec.server.head?.(answersOf(all, answerOf), address) : undefined,
      };
    },
    /** The page at an address with these params, or where the address sends the shopper. */
    render(params: Record<string, string | undefined>, search: URLSearchParams): ReactNode {
      const decided = decide(params, search);
      if (isRedirect(decided)) return <Redirected to={decided.redirect} replace />;
      return <RoutePage decided={decided} />;
    },
  };
}

export type Route = ReturnType<typeof defineRoute<string, Queries, Queries>>;
