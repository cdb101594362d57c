import type { ReactNode } from 'react';
import type { Product, SectionRef } from '../../api/types';
import { Link } from 'wouter';
import text from '../../ui/controls/Text.module.css';
import { ErrorState } from '../../ui/ErrorState';
import type { Load } from '../../ui/useLoads';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { CATALOG_TITLE } from './texts';
import classes from './HomeBlocks.module.css';

/** A block of the home page: its title (and a link beside it), then its content. */
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
    <section className={classes.block} aria-labelledby={id}>
      <div className={classes.head}>
        <h2 className={text.title} id={id}>
          {title}
        </h2>
        {more}
      </div>
      {children}
    </section>
  );
}

/** The sections the shop puts on its home page (GET catalog/section). */
export function HomeSections({ state }: { state: Load<SectionRef[]> }) {
  if (state.status === 'done' && state.data.length === 0) return null;
  return (
    <Block
      id="home-sections"
      title="Разделы"
      more={
        <Link href="/catalog" className={text.link}>
          {CATALOG_TITLE}
        </Link>
      }
    >
      {state.status === 'loading' && <ProductGridSkeleton sections={5} />}
      {state.status === 'error' && <ErrorState failure={state.failure} onRetry={state.reload} />}
      {state.status === 'done' && <ProductGrid sections={state.data} products={[]} />}
    </Block>
  );
}

/** The products the shop puts on its home page (GET catalog/product). */
export function HomeProducts({ state }: { state: Load<Product[]> }) {
  if (state.status === 'done' && state.data.length === 0) return null;
  return (
    <Block id="home-products" title="Популярные товары">
      {state.status === 'loading' && <ProductGridSkeleton products={5} />}
      {state.status === 'error' && <ErrorState failure={state.failure} onRetry={state.reload} />}
      {state.status === 'done' && <ProductGrid products={state.data} />}
    </Block>
  );
}
