import {
  type ComponentType,
  lazy,
  type LazyExoticComponent,
  Suspense,
  useCallback,
  useEffect,
} from 'react';
import { parse as parsePattern } from 'regexparam';
import { matchRoute, Route, Switch, useLocation } from 'wouter';
import type { Breadcrumbs, Product, Section, Selection } from '../api/types';
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
import { CATALOG_TITLE } from '../features/catalog/texts';
import { type PageTexts, showPageTexts } from '../lib/document-head';
import { priceText, stockText } from '../lib/product-text';
import { CITY, SHOP_DESCRIPTION, STORE_NAME } from '../lib/shop-info';
import { type Query, ShownAnswerContext } from '../ui/page-data';
import { NOT_FOUND_TEXT, NotFound } from '../ui/NotFound';
import { PageSkeleton } from '../ui/PageSkeleton';
import { PageErrorBoundary } from './PageErrorBoundary';

/**
 * Whether this is the server's build. The browser's has it false, and leaves each route's
 * server-side declarations (`SERVER && {…}`) out of the first view's JS.
 */
const SERVER = import.meta.env.SSR;

type PageModule = { default: ComponentType };

export interface Page {
  Component: LazyExoticComponent<ComponentType>;
  preload(): Promise<PageModule>;
}

/**
 * A page whose code (`load`: Vite makes each page module its own chunk) loads on demand. Once
 * loaded (preload() before the first render, or a first visit), it renders in the same pass: React gets the module synchronously instead of showing
 * the skeleton, and hydration finds the page the server rendered.
 */
function page(load: () => Promise<PageModule>): Page {
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

type Params = Record<string, string | undefined>;

/**
 * A text of the page: fixed, or made from its main answer (the first query its route declares),
 * typed by the entry as that query's answer.
 */
type PageText = string | ((main: never) => string);

/**
 * 'public': the same page for everyone who has nothing of their own to see (no basket, no
 * login), which a shared cache may keep; 'private': the visitor's own (their basket, orders).
 */
export type CachePolicy = 'public' | 'private';

/** The server's builders of what only crawlers and link previews read (src/app/page-head.ts). */
export type HeadName = 'store' | 'product' | 'section' | 'selection';

/** What the server alone reads of a route: its head, robots.txt and the sitemap, Cache-Control. */
export interface ServerSide {
  /**
   * The page module's path from the project's root, as Vite's build manifest names it: the
   * server preloads the page's chunks by it.
   */
  source: string;
  /**
   * Its OpenGraph picture and JSON-LD, built by src/app/page-head.ts. Without one: the shop's
   * picture, no JSON-LD.
   */
  head?: HeadName;
  /**
   * Worth a search engine's index: a canonical address and a place in the sitemap; else
   * noindex, and robots.txt's Disallow.
   */
  indexable: boolean;
  cache: CachePolicy;
}

export interface PageRoute extends Partial<ServerSide> {
  /** A wouter pattern: `:name` segments, any letter case, an optional trailing slash. */
  path: string;
  page: Page;
  /** The public data the page shows: loaded by the server, or by a client-side navigation. */
  data?: (params: Params, search: URLSearchParams) => Query<unknown>[];
  /** The page's part of the document title, after «Ягодная лавка — » (spec §2). */
  title: PageText;
  /** The description meta; the shop's own when the page has none. */
  description?: PageText;
}

type ProductAnswer = [Product, Breadcrumbs | null];
type SectionAnswer = [Section, Breadcrumbs | null];

const byId =
  (make: (id: number) => Query<unknown>) =>
  ({ id }: Params): Query<unknown>[] => {
    const parsed = parseCatalogId(id);
    return parsed === null ? [] : [make(parsed)];
  };

// One route per screen of spec §2. The basket is not listed: every page shows it, and the server
// loads it for every page (src/server-entry/entry-server.tsx). The orders are the visitor's: the server loads
// them with the visitor's cookies, and such a page is never cached.
// Cache policy: the catalogue (search results too) is the same for every visitor, 'public'; a
// visitor's own pages (basket, checkout, orders, login) are 'private'. Search results are not
// for an index.
export const ROUTES: PageRoute[] = [
  {
    path: '/',
    page: page(() => import('../features/catalog/HomePage')),
    data: () => [carouselQuery, selectionsQuery, homeSectionsQuery, homeProductsQuery],
    title: 'Главная',
    ...(SERVER &&
      ({
        source: 'src/features/catalog/HomePage.tsx',
        head: 'store',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/catalog',
    page: page(() => import('../features/catalog/CatalogPage')),
    data: () => [rootSectionsQuery],
    title: CATALOG_TITLE,
    ...(SERVER &&
      ({
        source: 'src/features/catalog/CatalogPage.tsx',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/section/:id',
    page: page(() => import('../features/catalog/SectionPage')),
    data: byId(sectionQuery),
    title: ([section]: SectionAnswer) => section.name,
    description: ([{ name, products }]: SectionAnswer) =>
      `${name} в магазине «${STORE_NAME}»: ${products.length} ${products.length === 1 ? 'товар' : 'товаров'} с ценами и наличием.`,
    ...(SERVER &&
      ({
        source: 'src/features/catalog/SectionPage.tsx',
        head: 'section',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/selection/:id',
    page: page(() => import('../features/catalog/SelectionPage')),
    data: byId(selectionQuery),
    title: (selection: Selection) => selection.name,
    description: ({ name, description }: Selection) =>
      description || `${name} — подборка магазина «${STORE_NAME}»`,
    ...(SERVER &&
      ({
        source: 'src/features/catalog/SelectionPage.tsx',
        head: 'selection',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/product/:id',
    page: page(() => import('../features/catalog/ProductPage')),
    data: byId(productQuery),
    title: ([product]: ProductAnswer) => product.name,
    description: ([product]: ProductAnswer) =>
      `${product.name}: ${priceText(product)}, ${stockText(product)}. ${STORE_NAME}, ${CITY}.`,
    ...(SERVER &&
      ({
        source: 'src/features/catalog/ProductPage.tsx',
        head: 'product',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/search',
    page: page(() => import('../features/search/SearchPage')),
    data: (_params, search) => {
      const q = queryOf(search.get('q') ?? '');
      return q === '' ? [] : [searchQuery(q)];
    },
    title: 'Поиск',
    ...(SERVER &&
      ({
        source: 'src/features/search/SearchPage.tsx',
        indexable: false,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/order',
    page: page(() => import('../features/basket/BasketPage')),
    title: 'Корзина',
    ...(SERVER &&
      ({
        source: 'src/features/basket/BasketPage.tsx',
        indexable: false,
        cache: 'private',
      } satisfies ServerSide)),
  },
  {
    path: '/commit',
    page: page(() => import('../features/checkout/CommitPage')),
    title: 'Подтверждение заказа',
    ...(SERVER &&
      ({
        source: 'src/features/checkout/CommitPage.tsx',
        indexable: false,
        cache: 'private',
      } satisfies ServerSide)),
  },
  {
    path: '/order_status',
    page: page(() => import('../features/orders/OrderStatusPage')),
    data: () => [orderHistoryQuery],
    title: 'Заказы',
    ...(SERVER &&
      ({
        source: 'src/features/orders/OrderStatusPage.tsx',
        indexable: false,
        cache: 'private',
      } satisfies ServerSide)),
  },
  {
    path: '/policy',
    page: page(() => import('../features/policy/PolicyPage')),
    data: () => [policyQuery],
    title: 'Политика конфиденциальности',
    ...(SERVER &&
      ({
        source: 'src/features/policy/PolicyPage.tsx',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/news',
    page: page(() => import('../features/news/NewsPage')),
    data: () => [newsQuery],
    title: 'Новости',
    ...(SERVER &&
      ({
        source: 'src/features/news/NewsPage.tsx',
        indexable: true,
        cache: 'public',
      } satisfies ServerSide)),
  },
  {
    path: '/login',
    page: page(() => import('../features/session/LoginPage')),
    title: 'Вход',
    ...(SERVER &&
      ({
        source: 'src/features/session/LoginPage.tsx',
        indexable: false,
        cache: 'private',
      } satisfies ServerSide)),
  },
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

/** The query whose answer the page's title and description are made from: its route's first. */
export function mainQuery({ route, params }: RouteMatch): Query<unknown> | undefined {
  return route.data?.(params, new URLSearchParams())[0];
}

/** The 404 page's texts: an unknown path, or a -404 page of spec §8. */
export const NOT_FOUND_TEXTS: PageTexts = { title: NOT_FOUND_TEXT, description: SHOP_DESCRIPTION };

/**
 * The title and description of the page `match` (null: the 404 page), from its route entry and,
 * when they are made from it, its main answer (`answerOf` its key); undefined without that answer.
 */
export function pageTexts(
  match: RouteMatch | null,
  answerOf: (key: string) => unknown,
): PageTexts | undefined {
  if (!match) return NOT_FOUND_TEXTS;
  const { title, description = SHOP_DESCRIPTION } = match.route;
  const key = mainQuery(match)?.key;
  const main = key === undefined ? undefined : answerOf(key);
  if (typeof title !== 'string' && main === undefined) return undefined;
  // The entry typed `main` as its first query's answer, which this is.
  const text = (made: PageText) =>
    typeof made === 'string' ? made : (made as (main: unknown) => string)(main);
  return { title: text(title), description: text(description) };
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

/**
 * The document's title and description meta, as the route declares them: fixed ones as the page
 * opens, ones made from the page's main answer once the page shows it (`show`, for the pages'
 * loads). Hydration finds them as the server wrote them.
 */
function useRouteTexts(location: string): (key?: string, data?: unknown) => void {
  const show = useCallback(
    (key?: string, data?: unknown) => {
      const texts = pageTexts(matchPage(location), (main) => (main === key ? data : undefined));
      if (texts) showPageTexts(texts);
    },
    [location],
  );
  useEffect(() => show(), [show]);
  return show;
}

export function Routes() {
  const [location] = useLocation();
  const showAnswer = useRouteTexts(location);
  return (
    <ShownAnswerContext value={showAnswer}>
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
    </ShownAnswerContext>
  );
}
