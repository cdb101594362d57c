import { describe, expect, it } from 'vitest';
import { priceText, stockText } from '../../../src/lib/product-text';

const nbsp = (text: string) => text.replace(/\s/g, ' ');

describe('product texts', () => {
  it.each([
    [{ price: 890, unit: 'кг' }, '890 ₽ / кг'],
    [{ price: 1290.5, unit: 'шт' }, '1 290,50 ₽ / шт'],
    [{ price: null, unit: 'л' }, 'Цена неизвестна'],
    // Spec §3 says «missing»: a backend that leaves the field out is read the same way.
    [{ unit: 'кг' }, 'Цена неизвестна'],
  ])('price of %o reads %s', (product, text) => {
    expect(nbsp(priceText(product as { price: number | null; unit: string }))).toBe(text);
  });

  it.each([
    [{ available: true, rest: 2.5, unit: 'кг' }, 'в наличии 2,5 кг'],
    [{ available: true, rest: 12, unit: 'шт' }, 'в наличии 12 шт'],
    [{ available: true, rest: 0.30000000000000004, unit: 'кг' }, 'в наличии 0,3 кг'],
    [{ available: false, rest: 0, unit: 'кг' }, 'закончилось'],
  ])('stock of %o reads %s', (product, text) => {
    expect(stockText(product)).toBe(text);
  });
});
