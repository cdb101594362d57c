import { Suspense, useEffect } from 'react';
import { parse as parsePattern } from 'regexparam';
import { matchRoute, Route, Switch, useLocation, useSearch } from 'wouter';
import { basketRoute } from '../features/basket/basket-route';
import { catalogRoute } from '../features/catalog/catalog-route';
import { homeRoute } from '../features/catalog/home-route';
import { productRoute } from '../features/catalog/product-route';
import { sectionRoute } from '../features/catalog/section-route';
import { selectionRoute } from '../features/catalog/selection-route';
import { commitRoute } from '../features/checkout/commit-route';
import { newsRoute } from '../features/news/news-route';
import { ordersRoute } from '../features/orders/orders-route';
import { policyRoute } from '../features/policy/policy-route';
import { searchRoute } from '../features/search/search-route';
import { loginRoute } from '../features/session/login-route';
import { type PageTexts, showPageTexts } from '../lib/document-head';
import { SHOP_DESCRIPTION } from '../lib/shop-info';
import { NOT_FOUND_TEXT, NotFound } from '../ui/NotFound';
import type { Query, Refusal } from '../ui/page-data';
import { PageSkeleton } from '../ui/PageSkeleton';
import { PageErrorBoundary } from './PageErrorBoundary';
import { noteView } from './views';
import type { OpenedRoute } from '../ui/route';

// One route per screen of spec §2, each declared beside its page. The basket is not a page's
// data: every page shows it, and the server loads it for every page
// (src/server-entry/entry-server.tsx).
export const ROUTES = [
  homeRoute,
  catalogRoute,
  sectionRoute,
  selectionRoute,
  productRoute,
  searchRoute,
  basketRoute,
  commitRoute,
  ordersRoute,
  policyRoute,
  newsRoute,
  loginRoute,
];

export type PageRoute = (typeof ROUTES)[number];

export interface RouteMatch {
  route: PageRoute;
  /** The route at this address: its queries, its texts and head from their answers. */
  opened: OpenedRoute;
}

/**
 * The route of the page at `url` (a path with its query string), matched as the router matches
 * it; null for the 404 page.
 */
export function matchPage(url: string): RouteMatch | null {
  const { pathname, searchParams } = new URL(`http://localhost${url}`);
  for (const route of ROUTES) {
    const [matched, params] = matchRoute(parsePattern, route.path, pathname);
    if (matched) return { route, opened: route.open(params ?? {}, searchParams) };
  }
  return null;
}

/**
 * What the server answers for a page, decided before anything renders (as Hydrogen's loaders
 * throw their 404): a redirect the address decides, or a 404 answer of the page's critical data
 * (its -404 page, spec §8); the 404 page for an address no route has; else the page.
 */
export type PageStatus =
  { kind: 'redirect'; location: string } | { kind: 'page'; status: 200 | 404 };

/** The status of the page `match` is, given what the backend refused (`refused`, by query key). */
export function pageStatus(match: RouteMatch | null, refused: Record<string, Refusal>): PageStatus {
  if (!match) return { kind: 'page', status: 404 };
  const { redirect, critical, missing } = match.opened;
  if (redirect) return { kind: 'redirect', location: redirect };
  if (!critical.some((query) => refused[query.key] === 404)) return { kind: 'page', status: 200 };
  return missing ? { kind: 'redirect', location: missing } : { kind: 'page', status: 404 };
}

/** The 404 page's texts: an unknown path, or a -404 page of spec §8. */
export const NOT_FOUND_TEXTS: PageTexts = { title: NOT_FOUND_TEXT, description: SHOP_DESCRIPTION };

/** The queries of the page at `url` (a path with its query string). */
export function pageQueries(url: string): Query<unknown>[] {
  return matchPage(url)?.opened.queries ?? [];
}

/** Loads the code of the page at `pathname`, if it has one of its own. */
export function preloadPage(pathname: string): Promise<unknown> {
  return matchPage(pathname)?.route.page.preload() ?? Promise.resolve();
}

/**
 * Marks the page as the app's once the page itself (its own Suspense boundary, which may hydrate
 * after the shell) has taken over the server's HTML: what browser tests wait for before a click,
 * and what shows the controls that work only with the app (the home carousel's arrows).
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

/**
 * The document's title and description meta as the page opens, when they are fixed (a page made
 * from its answers shows them with its answers: src/ui/route.tsx). Hydration finds them as the
 * server wrote them. Each page opened is also a view of the speed report's (src/app/views.ts).
 */
function useFixedTexts(location: string): void {
  useEffect(() => {
    const match = matchPage(location);
    const texts = match ? match.opened.texts(() => undefined) : NOT_FOUND_TEXTS;
    if (texts) showPageTexts(texts);
    // Each page shown is a view whose speed the shopper's browser reports (src/app/rum.ts).
    noteView(match?.route.path ?? null);
  }, [location]);
}

export function Routes() {
  const [location] = useLocation();
  const search = new URLSearchParams(useSearch());
  useFixedTexts(location);
  return (
    <PageErrorBoundary path={location}>
      <Suspense fallback={<PageSkeleton />}>
        <Switch>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path}>
              {(params) => route.render(params, search)}
            </Route>
          ))}
          {/* /section-404/{id}, /selection-404/{id}, /product-404/{id} and any unknown path */}
          <Route component={NotFound} />
        </Switch>
        <HydratedMark />
      </Suspense>
    </PageErrorBoundary>
  );
}
