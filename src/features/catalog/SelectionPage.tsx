import { Text } from '@mantine/core';
import { useLoad } from '../../ui/useLoad';
import { CatalogLayout, CatalogLayoutSkeleton, LoadFailure, WithCatalogId } from './CatalogLayout';
import { EmptySection } from './EmptySection';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { selectionQuery } from './queries';

function SelectionView({ id }: { id: number }) {
  const state = useLoad(selectionQuery(id));

  if (state.status === 'loading') {
    return (
      <CatalogLayoutSkeleton>
        <ProductGridSkeleton sections={2} products={6} />
      </CatalogLayoutSkeleton>
    );
  }
  if (state.status === 'error') {
    return (
      <LoadFailure kind="selection" id={id} httpStatus={state.httpStatus} onRetry={state.reload} />
    );
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

export default function SelectionPage() {
  return <WithCatalogId kind="selection">{(id) => <SelectionView id={id} />}</WithCatalogId>;
}
