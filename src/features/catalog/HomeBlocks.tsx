import { type CSSProperties, type ReactNode, Suspense, useRef } from 'react';
import type { Product, SectionRef } from '../../api/types';
import { Link } from 'wouter';
import text from '../../ui/controls/Text.module.css';
import { Loaded } from '../../ui/Loaded';
import type { Load } from '../../ui/useLoads';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { CATALOG_TITLE } from './texts';
import classes from './HomeBlocks.module.css';
import { paths } from '../../lib/paths';
import { usePicturesAhead } from '../../ui/pictures-ahead';

/** The rows a grid of `cards` makes on a phone: where the block's place is held (HomeBlocks.module.css). */
function gridStyle(cards: number): CSSProperties {
  return { '--home-grid-rows': Math.ceil(cards / 2) } as CSSProperties;
}

/**
 * A block below the first screen, hydrated on its own (React takes a Suspense boundary's server
 * HTML over after the rest, in a task of its own, and at once if the shopper taps into it): the
 * page's start is not one long task for all its cards.
 */
export function LaterBlock({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}

/** A block of the home page: its title (and a link beside it), then its grid of `cards`. */
function Block({
  id,
  title,
  more,
  cards,
  children,
}: {
  id: string;
  title: string;
  more?: ReactNode;
  cards: number;
  children: ReactNode;
}) {
  const block = useRef<HTMLElement>(null);
  usePicturesAhead(block);
  return (
    <section
      ref={block}
      className={`${classes.block} ${classes.grid}`}
      style={gridStyle(cards)}
      aria-labelledby={id}
    >
      <div className={classes.head}>
        <h2 className={text.title} id={id}>
          {title}
        </h2>
        {more}
      </div>
      <LaterBlock>{children}</LaterBlock>
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
      cards={state.status === 'done' ? state.data.length : 5}
      more={
        <Link href={paths.catalog()} className={text.link}>
          {CATALOG_TITLE}
        </Link>
      }
    >
      <Loaded load={state} pending={<ProductGridSkeleton sections={5} />}>
        {(sections) => <ProductGrid sections={sections} products={[]} />}
      </Loaded>
    </Block>
  );
}

/** The products the shop puts on its home page (GET catalog/product). */
export function HomeProducts({ state }: { state: Load<Product[]> }) {
  if (state.status === 'done' && state.data.length === 0) return null;
  return (
    <Block
      id="home-products"
      title="Популярные товары"
      cards={state.status === 'done' ? state.data.length : 5}
    >
      <Loaded load={state} pending={<ProductGridSkeleton products={5} />}>
        {(products) => <ProductGrid products={products} />}
      </Loaded>
    </Block>
  );
}
