import '@mantine/core/styles/Grid.css';
import { Grid } from '@mantine/core';
import type { ReactNode } from 'react';
import { useRouteData } from '../../ui/route';
import { CatalogLayout, CatalogLayoutSkeleton, LoadFailure } from './CatalogLayout';
import { ProductCardSkeleton } from './CardSkeletons';
import { DeliveryInfo } from './DeliveryInfo';
import { ProductCard } from './ProductCard';
import { productRoute } from './product-route';

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

export default function ProductPage() {
  const { product: state } = useRouteData(productRoute);

  if (state.status === 'loading') {
    return (
      <CatalogLayoutSkeleton>
        <ProductFrame card={<ProductCardSkeleton />} />
      </CatalogLayoutSkeleton>
    );
  }
  if (state.status === 'error') {
    return <LoadFailure failure={state.failure} onRetry={state.reload} />;
  }
  const [product, breadcrumbs] = state.data;
  // product_breadcrumbs runs down to the product's section; the product itself comes last.
  const crumbs = [
    ...(breadcrumbs ?? []).map((crumb) => ({ label: crumb.name, href: `/section/${crumb.id}` })),
    { label: product.name },
  ];
  return (
    <CatalogLayout
      crumbs={crumbs}
      title={product.name}
      onCrumbsRetry={breadcrumbs ? undefined : state.reload}
    >
      <ProductFrame
        card={<ProductCard product={product} imageSizes={PRODUCT_PAGE_SIZES} priority />}
      />
    </CatalogLayout>
  );
}
