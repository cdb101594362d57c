import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { NotFound } from '../ui/NotFound';
import { PageSkeleton } from '../ui/PageSkeleton';

// One route per screen of spec §2. Pages load on demand, so the first view downloads only its own.
const HomePage = lazy(() => import('../features/catalog/HomePage'));
const CatalogPage = lazy(() => import('../features/catalog/CatalogPage'));
const SectionPage = lazy(() => import('../features/catalog/SectionPage'));
const SelectionPage = lazy(() => import('../features/catalog/SelectionPage'));
const ProductPage = lazy(() => import('../features/catalog/ProductPage'));
const SearchPage = lazy(() => import('../features/search/SearchPage'));
const BasketPage = lazy(() => import('../features/basket/BasketPage'));
const CommitPage = lazy(() => import('../features/checkout/CommitPage'));
const OrderStatusPage = lazy(() => import('../features/orders/OrderStatusPage'));
const PolicyPage = lazy(() => import('../features/policy/PolicyPage'));
const NewsPage = lazy(() => import('../features/news/NewsPage'));
const LoginPage = lazy(() => import('../features/session/LoginPage'));

export function Routes() {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Switch>
        <Route path="/" component={HomePage} />
        <Route path="/catalog" component={CatalogPage} />
        <Route path="/section/:id" component={SectionPage} />
        <Route path="/selection/:id" component={SelectionPage} />
        <Route path="/product/:id" component={ProductPage} />
        <Route path="/search" component={SearchPage} />
        <Route path="/order" component={BasketPage} />
        <Route path="/commit" component={CommitPage} />
        <Route path="/order_status" component={OrderStatusPage} />
        <Route path="/policy" component={PolicyPage} />
        <Route path="/news" component={NewsPage} />
        <Route path="/login/" component={LoginPage} />
        <Route path="/login" component={LoginPage} />
        {/* /section-404/{id}, /selection-404/{id}, /product-404/{id} and any unknown path */}
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
