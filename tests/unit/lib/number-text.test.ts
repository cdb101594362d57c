import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatAmount } from '../../../src/lib/amount';
import { formatRub } from '../../../src/lib/money';
import { numberText } from '../../../src/lib/number-text';
import { stockText } from '../../../src/lib/product-text';
import { roundTo } from '../../../src/lib/round';

// Values whose decimals are exact in binary or already rounded, where Intl (which rounds the
// binary value) and roundTo (which rounds the decimal one) agree; the halves where they differ
// are roundTo's, checked below.
const VALUES = [
  0,
  1,
  7,
  12,
  999,
  1000,
  1001,
  9999.5,
  12_345.125,
  100_000,
  999_999.99,
  1_234_567.5,
  0.5,
  0.25,
  0.125,
  1.1,
  2.75,
  890,
  1250.5,
  0.3 * 890,
  0.3,
  10.01,
  -0,
  -1,
  -1250.5,
  -0.25,
  -1234567.89,
];

describe('numberText', () => {
  it('writes what Intl writes for ru-RU, to 0–3 decimals, grouped or not', () => {
    for (const value of VALUES) {
      for (const digits of [0, 1, 2, 3]) {
        for (const useGrouping of [true, false]) {
          const intl = new Intl.NumberFormat('ru-RU', {
            maximumFractionDigits: digits,
            useGrouping,
          });
          expect(numberText(value, digits, { grouping: useGrouping }), `${value} ${digits}`).toBe(
            intl.format(roundTo(value, digits)),
          );
        }
      }
    }
  });

  it('writes roubles as Intl writes RUB for ru-RU', () => {
    const whole = new Intl.NumberFormat('ru-RU', {
      style: 'currency',
      currency: 'RUB',
      maximumFractionDigits: 0,
    });
    const cents = new Intl.NumberFormat('ru-RU', {
      style: 'currency',
      currency: 'RUB',
      minimumFractionDigits: 2,
    });
    for (const value of [...VALUES, Number.NaN, Number.POSITIVE_INFINITY]) {
      const rounded = roundTo(value, 2);
      const intl = Number.isInteger(rounded) ? whole : cents;
      expect(formatRub(value), String(value)).toBe(intl.format(rounded));
    }
    expect(formatRub(1250)).toBe('1\u00a0250\u00a0₽');
    expect(formatRub(1250.5)).toBe('1\u00a0250,50\u00a0₽');
  });

  it('rounds halves away from zero on the decimal value, as the backend does', () => {
    expect(numberText(1.005, 2)).toBe('1,01');
    expect(numberText(-2.5, 0)).toBe('-3');
    expect(numberText(-0.04, 1)).toBe('0');
    expect(formatAmount(0.30000000000000004, 1)).toBe('0,3');
    expect(formatAmount(12345.5, 1)).toBe('12345,5');
    expect(stockText({ available: true, rest: 12.5, unit: 'кг' })).toBe('в наличии 12,5 кг');
    expect(stockText({ available: true, rest: 1500, unit: 'шт' })).toBe('в наличии 1\u00a0500 шт');
  });
});

describe('the first view', () => {
  afterEach(() => vi.restoreAllMocks());

  // The browser's first Russian number format loads the locale's data: 100 ms of a phone's start.
  it('loads and writes prices, amounts and stock without making an Intl number format', async () => {
    const made = vi.spyOn(Intl, 'NumberFormat');
    vi.resetModules();
    const money = await import('../../../src/lib/money');
    const amount = await import('../../../src/lib/amount');
    const texts = await import('../../../src/lib/product-text');
    money.formatRub(890);
    money.formatRub(1250.5);
    amount.formatAmount(1.5, 1);
    texts.stockText({ available: true, rest: 12.5, unit: 'кг' });
    expect(made).not.toHaveBeenCalled();
  });
});
