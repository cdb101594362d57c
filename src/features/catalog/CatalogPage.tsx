import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { useRouteData } from '../../ui/route';
import { catalogRoute } from './catalog-route';
import { CatalogLayout } from './CatalogLayout';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { CATALOG_TITLE } from './texts';

export default function CatalogPage() {
  const { sections: state } = useRouteData(catalogRoute);
  return (
    <CatalogLayout crumbs={[{ label: CATALOG_TITLE }]} title={CATALOG_TITLE}>
      {state.status === 'loading' && <ProductGridSkeleton sections={8} />}
      {state.status === 'error' && <ErrorState failure={state.failure} onRetry={state.reload} />}
      {state.status === 'done' &&
        (state.data.length === 0 ? (
          // The spec shows no empty catalogue; a shopper should still see why nothing is here.
          <EmptyState text="Каталог пока пуст" />
        ) : (
          <ProductGrid sections={state.data} products={[]} eager />
        ))}
    </CatalogLayout>
  );
}
