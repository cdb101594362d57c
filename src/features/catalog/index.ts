// What other features may use of the catalogue.
export { ProductCard } from './ProductCard';
export { ProductGrid, ProductGridSkeleton } from './ProductGrid';
export { SectionCard } from './SectionCard';
