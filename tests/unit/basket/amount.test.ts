import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/api/types';
import {
  canAdd,
  canIncrease,
  clampAmount,
  decreased,
  formatAmount,
  increased,
  lineSum,
  maxAmountOf,
  parseAmountText,
  precisionOf,
  sanitizeAmountText,
  showsMinus,
  stepOf,
} from '../../../src/lib/amount';

type Limits = Pick<Product, 'unit' | 'unit_step' | 'rest'>;
const pieces = (rest = 18): Limits => ({ unit: 'шт', unit_step: null, rest });
const kg = (unit_step: number | null = 0.1, rest = 12.5): Limits => ({
  unit: 'кг',
  unit_step,
  rest,
});

describe('steps and precision', () => {
  it.each<[string, Limits, number, number]>([
    ['pieces go by 1, whole', pieces(), 1, 0],
    ['pieces ignore a unit_step', { unit: 'шт', unit_step: 0.5, rest: 5 }, 1, 0],
    ['`Шт ` is pieces too', { unit: 'Шт ', unit_step: null, rest: 5 }, 1, 0],
    ['kg use their unit_step', kg(0.5), 0.5, 1],
    ['kg without unit_step go by 0.1', kg(null), 0.1, 1],
    ['a zero unit_step means the default', kg(0), 0.1, 1],
    ['litres by 0.5', { unit: 'л', unit_step: 0.5, rest: 40 }, 0.5, 1],
    ['grams by 100, one decimal still allowed', { unit: 'г', unit_step: 100, rest: 5 }, 100, 1],
    ['a step finer than 0.1 widens the precision', kg(0.25), 0.25, 2],
  ])('%s', (_name, product, step, precision) => {
    expect(stepOf(product)).toBe(step);
    expect(precisionOf(product)).toBe(precision);
  });
});

describe('the maximum: min(rest, 10), on the step grid', () => {
  it.each<[string, Limits, number]>([
    ['rest above 10', kg(0.1, 12.5), 10],
    ['rest below 10', kg(0.1, 3), 3],
    ['rest 2.5 by 0.1', kg(0.1, 2.5), 2.5],
    ['rest 2.25 by 0.1 rounds down to the grid', kg(0.1, 2.25), 2.2],
    ['rest 9.5 by 0.5', kg(0.5, 9.5), 9.5],
    ['rest 4.7 by 0.5', kg(0.5, 4.7), 4.5],
    ['rest 0.3 by 0.1 (0.3 / 0.1 is 2.9999…)', kg(0.1, 0.3), 0.3],
    ['pieces, rest 3', pieces(3), 3],
    ['pieces, rest 40', pieces(40), 10],
    ['nothing left', pieces(0), 0],
    ['a negative rest is 0', kg(0.1, -2), 0],
    ['grams by 100 never fit under 10', { unit: 'г', unit_step: 100, rest: 1200 }, 0],
  ])('%s', (_name, product, max) => {
    expect(maxAmountOf(product)).toBe(max);
  });

  it.each<[Limits, boolean]>([
    [kg(0.1, 0.1), true],
    [kg(0.5, 0.4), false],
    [pieces(0), false],
    [{ unit: 'г', unit_step: 100, rest: 1200 }, false],
  ])('canAdd(%o) is %s', (product, expected) => {
    expect(canAdd(product)).toBe(expected);
  });
});

describe('clampAmount: any wish made valid', () => {
  it.each<[string, Limits, number, number]>([
    ['below 0 becomes 0', kg(), -1, 0],
    ['-0.05 becomes 0', kg(), -0.05, 0],
    ['0 stays 0', kg(), 0, 0],
    ['NaN becomes 0', kg(), Number.NaN, 0],
    ['Infinity becomes 0', kg(), Number.POSITIVE_INFINITY, 0],
    ['above the maximum becomes the maximum', kg(0.1, 12.5), 12, 10],
    ['above a low rest becomes the rest', kg(0.1, 3), 4.2, 3],
    ['0.1 + 0.2 is 0.3', kg(), 0.1 + 0.2, 0.3],
    ['1.45 rounds to 1.5', kg(), 1.45, 1.5],
    ['1.5 stays on a 0.5 grid', kg(0.5, 24), 1.5, 1.5],
    ['1.3 lands on the 0.5 grid at 1.5', kg(0.5, 24), 1.3, 1.5],
    ['1.2 lands on the 0.5 grid at 1', kg(0.5, 24), 1.2, 1],
    ['a positive wish is never rounded to nothing', kg(0.5, 24), 0.1, 0.5],
    ['pieces are whole: 2.4 is 2', pieces(), 2.4, 2],
    ['pieces are whole: 2.6 is 3', pieces(), 2.6, 3],
    ['pieces: 0.3 is one piece', pieces(), 0.3, 1],
  ])('%s', (_name, product, wish, expected) => {
    expect(clampAmount(product, wish)).toBe(expected);
  });
});

describe('plus and minus', () => {
  it('ten pluses of 0.1 from 0 give exactly 1, with no float noise', () => {
    let amount = 0;
    for (let i = 0; i < 10; i += 1) amount = increased(kg(), amount);
    expect(amount).toBe(1);
  });

  it.each<[string, Limits, number, number, number]>([
    ['kg by 0.1', kg(), 1.5, 1.6, 1.4],
    ['kg by 0.5', kg(0.5, 24), 1.5, 2, 1],
    ['pieces', pieces(), 3, 4, 2],
    ['plus stops at the maximum', kg(0.1, 3), 3, 3, 2.9],
    ['minus stops at 0', pieces(), 1, 2, 0],
    ['minus from 0.1 is 0, not 1e-17', kg(), 0.1, 0.2, 0],
  ])('%s', (_name, product, amount, up, down) => {
    expect(increased(product, amount)).toBe(up);
    expect(decreased(product, amount)).toBe(down);
  });

  it.each<[string, Limits, number, boolean]>([
    ['below the maximum', kg(0.1, 3), 2.9, true],
    ['at the maximum', kg(0.1, 3), 3, false],
    ['at 10 with more in stock', kg(0.1, 40), 10, false],
    ['at 9.9 with more in stock', kg(0.1, 40), 9.9, true],
    ['pieces at the rest', pieces(3), 3, false],
    ['0.5 steps: 9.5 of 9.5', kg(0.5, 9.5), 9.5, false],
  ])('plus is enabled %s: %s', (_name, product, amount, enabled) => {
    expect(canIncrease(product, amount)).toBe(enabled);
  });

  it.each<[string, Limits, number, boolean]>([
    ['one piece shows delete', pieces(), 1, false],
    ['two pieces show minus', pieces(), 2, true],
    ['0.1 kg shows delete', kg(), 0.1, false],
    ['0.2 kg shows minus', kg(), 0.2, true],
    ['0.30000000000000004 kg shows minus', kg(), 0.1 + 0.2, true],
    ['0.5 of a 0.5 step shows delete', kg(0.5), 0.5, false],
  ])('%s', (_name, product, amount, minus) => {
    expect(showsMinus(product, amount)).toBe(minus);
  });
});

describe('typed text', () => {
  it.each<[string, number, string]>([
    ['1,5', 1, '1,5'],
    ['1.5', 1, '1.5'],
    ['1,55', 1, '1,5'],
    // Only one separator: a second one ends the number and is not kept.
    ['1.2.3', 1, '1.2'],
    ['1.2.3', 2, '1.2'],
    ['1,,5', 1, '1,5'],
    ['1.,5', 1, '1.5'],
    ['abc', 1, ''],
    // A minus before the digits is an amount below 0, which becomes 0; alone it is dropped.
    ['-2', 1, '0'],
    ['--2', 1, '0'],
    ['-', 1, ''],
    ['+2', 1, '2'],
    // A sign or an exponent after the digits ends the number: 2e3 is not 23.
    ['2e3', 1, '2'],
    ['2E3', 0, '2'],
    ['2e', 1, '2'],
    ['2-3', 1, '2'],
    ['2+3', 0, '2'],
    [' 3 ', 1, '3'],
    ['1 000', 1, '1000'],
    ['½', 1, ''],
    ['١٢', 1, ''],
    // Pieces take no separator: it ends the number, 3,7 is not 37.
    ['3,7', 0, '3'],
    ['3.7', 0, '3'],
    ['3.', 0, '3'],
    ['12', 0, '12'],
    [',5', 1, ',5'],
    ['2.', 1, '2.'],
    ['0.25', 2, '0.25'],
  ])('sanitizeAmountText(%j, %i) is %j', (text, precision, expected) => {
    expect(sanitizeAmountText(text, precision)).toBe(expected);
  });

  it.each<[string, number | null]>([
    ['1,5', 1.5],
    ['1.5', 1.5],
    [',5', 0.5],
    ['2.', 2],
    ['007', 7],
    ['0', 0],
    ['', null],
    [',', null],
    ['  ', null],
    ['1,2,3', null],
    ['abc', null],
    ['1.2.', null],
  ])('parseAmountText(%j) is %s', (text, expected) => {
    expect(parseAmountText(text)).toBe(expected);
  });

  it.each<[number, number, string]>([
    [1.5, 1, '1,5'],
    [2, 1, '2'],
    [0.1 + 0.2, 1, '0,3'],
    [1.1 * 3, 1, '3,3'],
    [1000, 0, '1000'],
    [3, 0, '3'],
    [0.7, 3, '0,7'],
  ])('formatAmount(%s, %i) is %j', (amount, precision, expected) => {
    expect(formatAmount(amount, precision)).toBe(expected);
  });
});

describe('line sums: amount × price to 2 decimals', () => {
  it.each<[number, number, number]>([
    [1.5, 690, 1035],
    [0.1 * 3, 890, 267],
    [1.1, 2.2, 2.42],
    [3, 0.1, 0.3],
    [0.7, 640, 448],
    [1.005, 1, 1.01],
  ])('%s × %s = %s', (amount, price, sum) => {
    expect(lineSum(amount, price)).toBe(sum);
  });
});
