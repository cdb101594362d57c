// What other features may use of the catalogue.
export { ProductCard } from './ProductCard';
export { ProductGrid } from './ProductGrid';
export { SectionCard } from './SectionCard';
