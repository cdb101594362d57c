// One page of the shop as one declaration (defineRoute), written beside the page in its feature
// folder: its address, the data it shows, its texts and head typed from that data, and what the
// server alone reads of it. src/app/routes.tsx lists them; the page reads its data through
// useRouteData(itsRoute).
import {
  type ComponentType,
  createContext,
  lazy,
  type LazyExoticComponent,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
} from 'react';
import { Redirect, useLocation, useParams, useRouter, useSearch } from 'wouter';
import { type PageTexts, showPageTexts } from '../lib/document-head';
import { SHOP_DESCRIPTION } from '../lib/shop-info';
import { type Answers, answersOf, hasAll, type Queries, type Query } from './page-data';
import { type LoadStates, useLoads } from './useLoads';

export type Params = Record<string, string | undefined>;

type PageModule = { default: ComponentType };

export interface Page {
  Component: LazyExoticComponent<ComponentType>;
  preload(): Promise<PageModule>;
}

/**
 * A page whose code (`load`: Vite makes each page module its own chunk) loads on demand. Once
 * loaded (preload() before the first render, or a first visit), it renders in the same pass: React
 * gets the module synchronously instead of showing the skeleton, and hydration finds the page the
 * server rendered.
 */
function lazyPage(load: () => Promise<PageModule>): Page {
  let loaded: PageModule | undefined;
  let loading: Promise<PageModule> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  // React's lazy reads a thenable that resolves synchronously as already resolved.
  const now = (module: PageModule) =>
    ({ then: (resolve: (value: PageModule) => void) => resolve(module) }) as Promise<PageModule>;
  return {
    Component: lazy(() => (loaded ? now(loaded) : preload())),
    preload,
  };
}

/**
 * What a route's data function decides at an address: the page's queries, by the names the page
 * reads them by, and where a 404 answer of one sends the shopper (`missing`, spec §8); or that
 * the page is missing already (an id that is not one): its -404 page, without a call.
 */
export type RouteData<Q extends Queries> = { queries: Q; missing?: string } | MissingPage;

type MissingPage = { queries: null; missing: string };

function isMissing<Q extends Queries>(decided: RouteData<Q>): decided is MissingPage {
  return decided.queries === null;
}

/** A text of the page: fixed, or made from its answers. */
type PageText<Q extends Queries> = string | ((answers: Answers<Q>) => string);

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
   * Its OpenGraph picture and JSON-LD (the catalogue's builders: features/catalog/heads.ts), from the answers
   * the page rendered with (those the server got). Without one, or undefined: the shop's
   * picture, no JSON-LD.
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

export interface RouteSpec<Q extends Queries> {
  /** A wouter pattern: `:name` segments, any letter case, an optional trailing slash. */
  path: string;
  /**
   * The public data the page shows, from the address's params and query: loaded by the server,
   * or by a client-side navigation before the page's code arrives. None: the page loads nothing.
   */
  data?: (params: Params, search: URLSearchParams) => RouteData<Q>;
  /** The page's part of the document title, after «Ягодная лавка — » (spec §2). */
  title: PageText<Q>;
  /** The description meta; the shop's own when the page has none. */
  description?: PageText<Q>;
  /** The page's module, as `() => import('./ThePage')`. */
  page: () => Promise<PageModule>;
  /** False in the browser's build: write it `SERVER && {…}`. */
  server: ServerSide<Q> | false;
}

/** A route at one address: what its page loads, and its texts and head once it has the answers. */
export interface OpenedRoute {
  /** The page's queries; none when the page is missing. */
  queries: Query<unknown>[];
  /** Where the shopper goes instead: now (no queries), or on a 404 answer of a query. */
  missing: string | undefined;
  /** Undefined while a text is made from answers that are not all there (`answerOf`). */
  texts(answerOf: (query: Query<unknown>) => unknown): PageTexts | undefined;
  /** The route's head builder's part (undefined: it has none, or not for these answers). */
  head(answerOf: (query: Query<unknown>) => unknown, address: PageAddress): HeadExtras | undefined;
}

/**
 * The texts of a page whose queries and answers are these; undefined while a text is made from
 * answers that are not all there.
 */
function textsOf<Q extends Queries>(
  { title, description = SHOP_DESCRIPTION }: Pick<RouteSpec<Q>, 'title' | 'description'>,
  queries: Q | null,
  answers: Partial<Answers<Q>>,
): PageTexts | undefined {
  if (typeof title === 'string' && typeof description === 'string') return { title, description };
  if (!queries || !hasAll(answers, queries)) return undefined;
  const text = (made: PageText<Q>) => (typeof made === 'string' ? made : made(answers));
  return { title: text(title), description: text(description) };
}

/**
 * Declares a page: `data`'s answers type its texts and head, so a title reading a field the data
 * does not have fails `npm run typecheck` (tests/types/route-texts.ts).
 */
export function defineRoute<Q extends Queries = Record<never, never>>(spec: RouteSpec<Q>) {
  const page = lazyPage(spec.page);
  // Undefined: the page loads nothing.
  const decide = (params: Params, search: URLSearchParams): RouteData<Q> | undefined =>
    spec.data?.(params, search);
  // The queries the route decided at the page's address, for its page (useRouteData).
  const Decided = createContext<RouteData<Q> | null>(null);

  return {
    ...spec,
    page,
    Decided,
    decide,
    /** What the route is at an address (for the server, the navigation and the title). */
    open(params: Params, search: URLSearchParams): OpenedRoute {
      const { queries, missing } = decide(params, search) ?? { queries: null };
      return {
        queries: queries ? Object.values(queries) : [],
        missing,
        texts: (answerOf) => textsOf(spec, queries, queries ? answersOf(queries, answerOf) : {}),
        head: (answerOf, address) =>
          queries && spec.server
            ? spec.server.head?.(answersOf(queries, answerOf), address)
            : undefined,
      };
    },
    /** The page at an address with these params: its -404 page when the route decides so. */
    render(params: Params, search: URLSearchParams): ReactNode {
      const decided = decide(params, search);
      if (!decided) return <page.Component />;
      if (isMissing(decided)) return <Redirect to={decided.missing} replace />;
      return (
        <Decided value={decided}>
          <page.Component />
        </Decided>
      );
    },
  };
}

export type Route<Q extends Queries> = ReturnType<typeof defineRoute<Q>>;

/** Sends the shopper to `to` (when set): the server answers with a redirect, as <Redirect> does. */
function useRedirect(to: string | undefined): void {
  const { ssrContext } = useRouter();
  const [, navigate] = useLocation();
  if (to && ssrContext) Object.assign(ssrContext, { redirectTo: to });
  useLayoutEffect(() => {
    if (to) navigate(to, { replace: true });
  }, [to, navigate]);
}

/**
 * The page's data, each query's load state by its name (useLoads): what its route decided at the
 * page's address. A 404 answer sends the shopper to the page's -404 page; once all the answers
 * are in, the document's title and description are the route's.
 */
export function useRouteData<Q extends Queries>(route: Route<Q>): LoadStates<Q> {
  const decided = useContext(route.Decided);
  const params = useParams();
  const search = useSearch();
  // Rendered outside its route (alone, as a unit test does): decided here, from the address.
  const { queries, missing } = decided ??
    route.decide(params, new URLSearchParams(search)) ?? { queries: null };
  // The route renders the -404 page instead (its render()), or has no data to read.
  if (!queries) throw new Error(`useRouteData: ${route.path} has no data here (${missing})`);
  const states = useLoads(queries);
  const loaded = Object.values(states);
  useRedirect(loaded.some((state) => state.httpStatus === 404) ? missing : undefined);

  const answerByKey = new Map(
    Object.entries(queries).map(([name, query]) => [query.key, states[name]?.data]),
  );
  const texts = textsOf(
    route,
    queries,
    answersOf(queries, (query) => answerByKey.get(query.key)),
  );
  const title = texts?.title;
  const description = texts?.description;
  useEffect(() => {
    if (title !== undefined && description !== undefined) showPageTexts({ title, description });
  }, [title, description]);
  return states;
}
