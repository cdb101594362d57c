import { Text } from '@mantine/core';
import type { Selection } from '../../api/types';
import { CatalogLayout } from './CatalogLayout';
import { SectionItems } from './EmptySection';

export { LoadFailure as Failed, SectionPending as Pending } from './CatalogLayout';

export default function SelectionPage({ selection }: { selection: Selection }) {
  return (
    <CatalogLayout crumbs={[{ label: selection.name }]} title={selection.name}>
      {selection.description && <Text c="dimmed">{selection.description}</Text>}
      <SectionItems sections={selection.sections} products={selection.products} />
    </CatalogLayout>
  );
}
