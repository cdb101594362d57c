import type { Product } from '../api/types';
import { formatRub } from './money';
import { numberText } from './number-text';

/** Spec §3: a price that is missing (absent or null) is unknown, never «не число ₽». */
export function hasPrice(product: Pick<Product, 'price'>): product is { price: number } {
  return typeof product.price === 'number' && Number.isFinite(product.price);
}

/** `890 ₽ / кг`, or `Цена неизвестна` when the product has no price (spec §3). */
export function priceText(product: Pick<Product, 'price' | 'unit'>): string {
  return !hasPrice(product) ? 'Цена неизвестна' : `${formatRub(product.price)} / ${product.unit}`;
}

/** `в наличии 12,5 кг`, or `закончилось` (spec §4). */
export function stockText(product: Pick<Product, 'available' | 'rest' | 'unit'>): string {
  return product.available
    ? `в наличии ${numberText(product.rest, 3)} ${product.unit}`
    : 'закончилось';
}
