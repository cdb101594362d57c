import type { Product } from '../api/types';

// Basket amount rules (spec §5, §9). The basket issue completes parsing and precision.
export const MAX_AMOUNT = 10;
export const DEFAULT_STEP = 0.1;

export function isPieceUnit(unit: string): boolean {
  return unit.trim().toLowerCase() === 'шт';
}

/** 1 for pieces, otherwise the product's unit_step or 0.1. */
export function stepOf(product: Pick<Product, 'unit' | 'unit_step'>): number {
  if (isPieceUnit(product.unit)) return 1;
  return product.unit_step && product.unit_step > 0 ? product.unit_step : DEFAULT_STEP;
}

/** The largest amount a shopper may put in the basket: the stock, but at most 10. */
export function maxAmountOf(product: Pick<Product, 'rest'>): number {
  return Math.max(0, Math.min(product.rest, MAX_AMOUNT));
}
