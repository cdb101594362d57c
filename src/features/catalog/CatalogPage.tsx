import type { SectionRef } from '../../api/types';
import { EmptyState } from '../../ui/EmptyState';
import { Loaded } from '../../ui/Loaded';
import type { Load } from '../../ui/useLoads';
import { CatalogLayout } from './CatalogLayout';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { CATALOG_TITLE } from './texts';

export default function CatalogPage({ sections }: { sections: Load<SectionRef[]> }) {
  return (
    <CatalogLayout crumbs={[{ label: CATALOG_TITLE }]} title={CATALOG_TITLE}>
      <Loaded load={sections} pending={<ProductGridSkeleton sections={8} />}>
        {(roots) =>
          roots.length === 0 ? (
            // The spec shows no empty catalogue; a shopper should still see why nothing is here.
            <EmptyState text="Каталог пока пуст" />
          ) : (
            <ProductGrid sections={roots} products={[]} eager />
          )
        }
      </Loaded>
    </CatalogLayout>
  );
}
