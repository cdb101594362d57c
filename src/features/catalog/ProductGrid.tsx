import type { ReactNode } from 'react';
import type { Product, SectionRef } from '../../api/types';
import { ProductCardSkeleton, SectionCardSkeleton } from './CardSkeletons';
import { ProductCard } from './ProductCard';
import classes from './ProductGrid.module.css';
import { SectionCard } from './SectionCard';

/** How many cards a grid shows with their images loaded at once: about the first screenful. */
const EAGER_CARDS = 4;

/**
 * A card's width at spec §9's breakpoints (ProductGrid.module.css), as `sizes`, rounded up to
 * keep the first view's script small: inside the page's column (100vw - 32px, 1108 px at most),
 * 2 columns on a phone (50vw - 22px), 3 from sm (33vw - 21px), then 4 or 5 of at most 265 px.
 */
export const GRID_CARD_SIZES = '(min-width:60em) 265px,(min-width:37.5em) 33vw,50vw';

/** Two columns on a phone up to five on a wide screen; a card never grows past 300 px. */
function Grid({ children }: { children: ReactNode }) {
  return <div className={classes.grid}>{children}</div>;
}

/** Sections first, then products (spec §2: child sections followed by products). */
export function ProductGrid({
  sections = [],
  products,
  eager = false,
  cardsAbove = 0,
}: {
  sections?: SectionRef[];
  products: Product[];
  /** The grid is at the top of its page: its first images load without waiting for a scroll. */
  eager?: boolean;
  /** Cards of another grid above this one, on the same first screen. */
  cardsAbove?: number;
}) {
  const eagerCards = eager ? EAGER_CARDS - cardsAbove : 0;
  return (
    <Grid>
      {sections.map((section, index) => (
        <SectionCard
          key={`s${section.id}`}
          section={section}
          imageSizes={GRID_CARD_SIZES}
          eager={index < eagerCards}
        />
      ))}
      {products.map((product, index) => (
        <ProductCard
          key={`p${product.id}`}
          product={product}
          imageSizes={GRID_CARD_SIZES}
          eager={sections.length + index < eagerCards}
        />
      ))}
    </Grid>
  );
}

/** Holds a grid's place while it loads. */
export function ProductGridSkeleton({
  sections = 0,
  products = 0,
}: {
  sections?: number;
  products?: number;
}) {
  return (
    <div aria-busy="true" aria-label="Загрузка">
      <Grid>
        {Array.from({ length: sections }, (_, index) => (
          <SectionCardSkeleton key={`s${index}`} />
        ))}
        {Array.from({ length: products }, (_, index) => (
          <ProductCardSkeleton key={`p${index}`} />
        ))}
      </Grid>
    </div>
  );
}
