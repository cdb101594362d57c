import { SimpleGrid } from '@mantine/core';
import type { Product, SectionRef } from '../../api/types';
import { ProductCard } from './ProductCard';
import { SectionCard } from './SectionCard';

/** Sections first, then products, in a grid that adds columns as the screen widens. */
export function ProductGrid({
  sections = [],
  products,
}: {
  sections?: SectionRef[];
  products: Product[];
}) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 5 }} spacing="md">
      {sections.map((section) => (
        <SectionCard key={`s${section.id}`} section={section} />
      ))}
      {products.map((product) => (
        <ProductCard key={`p${product.id}`} product={product} />
      ))}
    </SimpleGrid>
  );
}
