import { Text } from '@mantine/core';
import { useRouteData } from '../../ui/route';
import { CatalogLayout, CatalogLayoutSkeleton, LoadFailure } from './CatalogLayout';
import { EmptySection } from './EmptySection';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { selectionRoute } from './selection-route';

export default function SelectionPage() {
  const { selection: state } = useRouteData(selectionRoute);

  if (state.status === 'loading') {
    return (
      <CatalogLayoutSkeleton>
        <ProductGridSkeleton sections={2} products={6} />
      </CatalogLayoutSkeleton>
    );
  }
  if (state.status === 'error') {
    return <LoadFailure failure={state.failure} onRetry={state.reload} />;
  }
  const selection = state.data;
  const empty = selection.sections.length === 0 && selection.products.length === 0;
  return (
    <CatalogLayout crumbs={[{ label: selection.name }]} title={selection.name}>
      {selection.description && <Text c="dimmed">{selection.description}</Text>}
      {empty ? (
        <EmptySection />
      ) : (
        <ProductGrid sections={selection.sections} products={selection.products} eager />
      )}
    </CatalogLayout>
  );
}
