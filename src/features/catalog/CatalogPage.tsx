import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { useLoad } from '../../ui/useLoad';
import { CatalogLayout } from './CatalogLayout';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { rootSectionsQuery } from './queries';
import { CATALOG_TITLE } from './texts';

export default function CatalogPage() {
  const state = useLoad(rootSectionsQuery);
  return (
    <CatalogLayout crumbs={[{ label: CATALOG_TITLE }]} title={CATALOG_TITLE}>
      {state.status === 'loading' && <ProductGridSkeleton sections={8} />}
      {state.status === 'error' && <ErrorState onRetry={state.reload} />}
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
