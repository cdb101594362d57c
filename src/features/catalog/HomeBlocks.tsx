import { Anchor, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ErrorState } from '../../ui/ErrorState';
import { useLoad } from '../../ui/useLoad';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { homeProductsQuery, homeSectionsQuery } from './queries';
import { CATALOG_TITLE } from './texts';

function Block({
  id,
  title,
  more,
  children,
}: {
  id: string;
  title: string;
  more?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="baseline">
        <Title order={2} id={id}>
          {title}
        </Title>
        {more}
      </Group>
      {children}
    </Stack>
  );
}

/** The sections the shop puts on its home page (GET catalog/section). */
export function HomeSections() {
  const state = useLoad(homeSectionsQuery);
  if (state.status === 'done' && state.data.length === 0) return null;
  return (
    <Block
      id="home-sections"
      title="Разделы"
      more={
        <Anchor component={Link} href="/catalog">
          {CATALOG_TITLE}
        </Anchor>
      }
    >
      {state.status === 'loading' && <ProductGridSkeleton sections={5} />}
      {state.status === 'error' && <ErrorState onRetry={state.reload} />}
      {state.status === 'done' && <ProductGrid sections={state.data} products={[]} />}
    </Block>
  );
}

/** The products the shop puts on its home page (GET catalog/product). */
export function HomeProducts() {
  const state = useLoad(homeProductsQuery);
  if (state.status === 'done' && state.data.length === 0) return null;
  return (
    <Block id="home-products" title="Популярные товары">
      {state.status === 'loading' && <ProductGridSkeleton products={5} />}
      {state.status === 'error' && <ErrorState onRetry={state.reload} />}
      {state.status === 'done' && <ProductGrid products={state.data} />}
    </Block>
  );
}
