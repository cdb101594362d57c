import { Link } from 'wouter';
import type { Product, SectionRef } from '../../api/types';
import { Button } from '../../ui/controls/Button';
import { EmptyState } from '../../ui/EmptyState';
import { CATALOG_TITLE, EMPTY_SECTION_TEXT } from './texts';
import { paths } from '../../lib/paths';
import { ProductGrid } from './ProductGrid';

/** A section or selection with nothing in it: the spec's text and a way back to the catalogue. */
export function EmptySection() {
  return (
    <EmptyState
      text={EMPTY_SECTION_TEXT}
      action={
        <Button component={Link} href={paths.catalog()} variant="light">
          {CATALOG_TITLE}
        </Button>
      }
    />
  );
}

/** What a section or selection holds: its sections, then its products, or that it is empty. */
export function SectionItems({
  sections,
  products,
}: {
  sections: SectionRef[];
  products: Product[];
}) {
  if (sections.length === 0 && products.length === 0) return <EmptySection />;
  return <ProductGrid sections={sections} products={products} eager />;
}
