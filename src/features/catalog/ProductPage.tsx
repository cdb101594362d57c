import '@mantine/core/styles/Grid.css';
import { Grid } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Breadcrumbs, Product } from '../../api/types';
import { CatalogLayout, CatalogLayoutSkeleton } from './CatalogLayout';
import { ProductCardSkeleton } from './CardSkeletons';
import { DeliveryInfo } from './DeliveryInfo';
import { ProductCard } from './ProductCard';
import { paths } from '../../lib/paths';

// The card keeps its 300 px (spec §2); beside it on wider screens, below it on a phone, what a
// buyer asks next: how the berries reach them.
/** The card's picture (`sizes`): 300 px, or the column on a phone narrower than 332 px. */
export const PRODUCT_PAGE_SIZES = '(max-width:332px) calc(100vw - 32px),300px';

function ProductFrame({ card }: { card: ReactNode }) {
  return (
    <Grid gap="lg" align="flex-start">
      <Grid.Col span={{ base: 12, sm: 'content' }}>
        <div style={{ width: 300, maxWidth: '100%' }}>{card}</div>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 'auto' }}>
        <DeliveryInfo />
      </Grid.Col>
    </Grid>
  );
}

/** The page while the product loads. */
export function Pending() {
  return (
    <CatalogLayoutSkeleton>
      <ProductFrame card={<ProductCardSkeleton />} />
    </CatalogLayoutSkeleton>
  );
}

export { LoadFailure as Failed } from './CatalogLayout';

interface ProductPageProps {
  /** Failed breadcrumbs (null) do not hide the product: it can still be bought. */
  product: [Product, Breadcrumbs | null];
  reload: () => void;
}

export default function ProductPage({ product: [product, breadcrumbs], reload }: ProductPageProps) {
  // product_breadcrumbs runs down to the product's section; the product itself comes last.
  const crumbs = [
    ...(breadcrumbs ?? []).map((crumb) => ({ label: crumb.name, href: paths.section(crumb.id) })),
    { label: product.name },
  ];
  return (
    <CatalogLayout
      crumbs={crumbs}
      title={product.name}
      onCrumbsRetry={breadcrumbs ? undefined : reload}
    >
      <ProductFrame
        card={<ProductCard product={product} imageSizes={PRODUCT_PAGE_SIZES} priority />}
      />
    </CatalogLayout>
  );
}
