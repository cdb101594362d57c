import { type ComponentType, lazy, type LazyExoticComponent, Suspense, useEffect } from 'react';
import { parse as parsePattern } from 'regexparam';
import { matchRoute, Route, Switch, useLocation } from 'wouter';
import { parseCatalogId } from '../features/catalog/catalog-id';
import {
  carouselQuery,
  homeProductsQuery,
  homeSectionsQuery,
  productQuery,
  rootSectionsQuery,
  sectionQuery,
  selectionQuery,
  selectionsQuery,
} from '../features/catalog/queries';
import { newsQuery } from '../features/news/queries';
import { orderHistoryQuery } from '../features/orders/queries';
import { policyQuery } from '../features/policy/queries';
import { searchQuery } from '../features/search/queries';
import { queryOf } from '../features/search/query';
import type { Query } from '../ui/page-data';
import { NotFound } from '../ui/NotFound';
import { PageSkeleton } from '../ui/PageSkeleton';
import { PageErrorBoundary } from './PageErrorBoundary';

type PageModule = { default: ComponentType };

/** Every page module, by its path from here; Vite makes each its own chunk. */
const PAGE_MODULES = import.meta.glob<PageModule>('../features/*/*Page.tsx');

export interface Page {
  Component: LazyExoticComponent<ComponentType>;
  /** The module's path from the project's root, as Vite's build manifest names it. */
  source: string;
  preload(): Promise<PageModule>;
}

/**
 * A page whose code loads on demand. Once loaded (preload() before the first render, or a first
 * visit), it renders in the same pass: React gets the module synchronously instead of showing
 * the skeleton, and hydration finds the page the server rendered.
 */
function page(name: string): Page {
  const path = `../features/${name}.tsx`;
  const load = PAGE_MODULES[path];
  if (!load) throw new Error(`routes: no page module ${path}`);
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
    source: `src/features/${name}.tsx`,
    preload,
  };
}

type Params = Record<string, string | undefined>;

export interface PageRoute {
  /** A wouter pattern: `:name` segments, any letter case, an optional trailing slash. */
  path: string;
  page: Page;
  /** The public data the page shows: loaded by the server, or by a client-side navigation. */
  data?: (params: Params, search: URLSearchParams) => Query<unknown>[];
  /**
   * 'public': the same page for everyone who has nothing of their own to see (no basket, no
   * login), which a shared cache may keep; 'private': the visitor's own (their basket, orders).
   */
  cache: 'public' | 'private';
}

const byId =
  (make: (id: number) => Query<unknown>) =>
  ({ id }: Params): Query<unknown>[] => {
    const parsed = parseCatalogId(id);
    return parsed === null ? [] : [make(parsed)];
  };

// One route per screen of spec §2. The basket is not listed: every page shows it, and the server
// loads it for every page (src/entry-server.tsx). The orders are the visitor's: the server loads
// them with the visitor's cookies, and such a page is never cached.
export const ROUTES: PageRoute[] = [
  {
    path: '/',
    cache: 'public',
    page: page('catalog/HomePage'),
    data: () => [carouselQuery, selectionsQuery, homeSectionsQuery, homeProductsQuery],
  },
  {
    path: '/catalog',
    cache: 'public',
    page: page('catalog/CatalogPage'),
    data: () => [rootSectionsQuery],
  },
  {
    path: '/section/:id',
    cache: 'public',
    page: page('catalog/SectionPage'),
    data: byId(sectionQuery),
  },
  {
    path: '/selection/:id',
    cache: 'public',
    page: page('catalog/SelectionPage'),
    data: byId(selectionQuery),
  },
  {
    path: '/product/:id',
    cache: 'public',
    page: page('catalog/ProductPage'),
    data: byId(productQuery),
  },
  {
    path: '/search',
    cache: 'public',
    page: page('search/SearchPage'),
    data: (_params, search) => {
      const q = queryOf(search.get('q') ?? '');
      return q === '' ? [] : [searchQuery(q)];
    },
  },
  { path: '/order', cache: 'private', page: page('basket/BasketPage') },
  { path: '/commit', cache: 'private', page: page('checkout/CommitPage') },
  {
    path: '/order_status',
    cache: 'private',
    page: page('orders/OrderStatusPage'),
    data: () => [orderHistoryQuery],
  },
  { path: '/policy', cache: 'public', page: page('policy/PolicyPage'), data: () => [policyQuery] },
  { path: '/news', cache: 'public', page: page('news/NewsPage'), data: () => [newsQuery] },
  { path: '/login', cache: 'private', page: page('session/LoginPage') },
];

export interface RouteMatch {
  route: PageRoute;
  params: Params;
}

/** The route of `pathname`, matched as the router matches it; null for the 404 page. */
export function matchPage(pathname: string): RouteMatch | null {
  for (const route of ROUTES) {
    const [matched, params] = matchRoute(parsePattern, route.path, pathname);
    if (matched) return { route, params: params ?? {} };
  }
  return null;
}

/** The queries of the page at `url` (a path with its query string). */
export function pageQueries(url: string): Query<unknown>[] {
  const { pathname, searchParams } = new URL(`http://localhost${url}`);
  const match = matchPage(pathname);
  return match?.route.data?.(match.params, searchParams) ?? [];
}

/** Loads the code of the page at `pathname`, if it has one of its own. */
export function preloadPage(pathname: string): Promise<unknown> {
  return matchPage(pathname)?.route.page.preload() ?? Promise.resolve();
}

/**
 * Marks the page as the app's once the page itself (its own Suspense boundary, which may hydrate
 * after the shell) has taken over the server's HTML: what browser tests wait for before a click.
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

export function Routes() {
  const [location] = useLocation();
  return (
    <PageErrorBoundary path={location}>
      <Suspense fallback={<PageSkeleton />}>
        <Switch>
          {ROUTES.map(({ path, page }) => (
            <Route key={path} path={path} component={page.Component} />
          ))}
          {/* /section-404/{id}, /selection-404/{id}, /product-404/{id} and any unknown path */}
          <Route component={NotFound} />
        </Switch>
        <HydratedMark />
      </Suspense>
    </PageErrorBoundary>
  );
}
