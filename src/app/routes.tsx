import { type ComponentType, lazy, type LazyExoticComponent, Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { NotFound } from '../ui/NotFound';
import { PageSkeleton } from '../ui/PageSkeleton';
import { PageErrorBoundary } from './PageErrorBoundary';

type PageModule = { default: ComponentType };
type Page = LazyExoticComponent<ComponentType> & { preload(): Promise<PageModule> };

/**
 * A page whose code loads on demand. Once loaded (preload() at start-up, or a first visit), it
 * renders in the same pass: React gets the module synchronously instead of showing the skeleton
 * and then waiting out its 300 ms reveal throttle.
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
  return Object.assign(
    lazy(() => (loaded ? now(loaded) : preload())),
    { preload },
  );
}

// One route per screen of spec §2. Pages load on demand, so the first view downloads only its own.
const HomePage = page(() => import('../features/catalog/HomePage'));
const CatalogPage = page(() => import('../features/catalog/CatalogPage'));
const SectionPage = page(() => import('../features/catalog/SectionPage'));
const SelectionPage = page(() => import('../features/catalog/SelectionPage'));
const ProductPage = page(() => import('../features/catalog/ProductPage'));
const SearchPage = page(() => import('../features/search/SearchPage'));
const BasketPage = page(() => import('../features/basket/BasketPage'));
const CommitPage = page(() => import('../features/checkout/CommitPage'));
const OrderStatusPage = page(() => import('../features/orders/OrderStatusPage'));
const PolicyPage = page(() => import('../features/policy/PolicyPage'));
const NewsPage = page(() => import('../features/news/NewsPage'));
const LoginPage = page(() => import('../features/session/LoginPage'));

// vite.config.ts reads this table (the page of each path) to preload the first route's chunks.
const ROUTES: [path: string, page: Page][] = [
  ['/', HomePage],
  ['/catalog', CatalogPage],
  ['/section/:id', SectionPage],
  ['/selection/:id', SelectionPage],
  ['/product/:id', ProductPage],
  ['/search', SearchPage],
  ['/order', BasketPage],
  ['/commit', CommitPage],
  ['/order_status', OrderStatusPage],
  ['/policy', PolicyPage],
  ['/news', NewsPage],
  ['/login/', LoginPage],
  ['/login', LoginPage],
];

/** Matches like wouter's patterns: `:name` segments, an optional trailing slash, any case. */
function matches(pattern: string, pathname: string): boolean {
  const patternParts = pattern.replace(/\/+$/, '').split('/');
  const pathParts = pathname.replace(/\/+$/, '').split('/');
  return (
    patternParts.length === pathParts.length &&
    patternParts.every(
      (part, index) =>
        (part.startsWith(':') && pathParts[index] !== '') ||
        part.toLowerCase() === pathParts[index]?.toLowerCase(),
    )
  );
}

/** Loads the code of the page at `pathname`, if it has one of its own. */
export function preloadPage(pathname: string): Promise<unknown> {
  const found = ROUTES.find(([pattern]) => matches(pattern, pathname));
  return found ? found[1].preload() : Promise.resolve();
}

export function Routes() {
  const [location] = useLocation();
  return (
    <PageErrorBoundary path={location}>
      <Suspense fallback={<PageSkeleton />}>
        <Switch>
          {ROUTES.map(([path, component]) => (
            <Route key={path} path={path} component={component} />
          ))}
          {/* /section-404/{id}, /selection-404/{id}, /product-404/{id} and any unknown path */}
          <Route component={NotFound} />
        </Switch>
      </Suspense>
    </PageErrorBoundary>
  );
}
