import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/api/types';
import {
  clampAmount,
  parseAmountText,
  precisionOf,
  sanitizeAmountText,
} from '../../../src/lib/amount';

// Bad input in the basket's amount field (issue 8), through the field's whole path: what the
// field keeps of the text as it is typed or pasted, what number that is, and the amount that
// goes to the server. `null` means the text holds no number: the amount stays as it was.
type Limits = Pick<Product, 'unit' | 'unit_step' | 'rest'>;
const RASPBERRY: Limits = { unit: 'кг', unit_step: 0.1, rest: 15 };
const JAM: Limits = { unit: 'шт', unit_step: null, rest: 20 };
const LOW_STOCK: Limits = { unit: 'кг', unit_step: 0.1, rest: 2.5 };

function typed(product: Limits, text: string): { field: string; amount: number | null } {
  const field = sanitizeAmountText(text, precisionOf(product));
  const parsed = parseAmountText(field);
  return { field, amount: parsed === null ? null : clampAmount(product, parsed) };
}

describe('amounts a shopper should not type, by weight (кг, step 0.1)', () => {
  it.each<[string, string, number | null, string]>([
    ['1e9', '1', 1, 'the exponent ends the number: not a billion, not 19'],
    ['2,5e1', '2,5', 2.5, 'after decimals too'],
    ['-0', '0', 0, '0 removes the line'],
    ['-5', '0', 0, 'below 0 becomes 0 (spec §4): the line is removed'],
    ['-1,5', '0', 0, 'a negative weight too'],
    ['-', '', null, 'a minus alone is not taken'],
    ['0,,5', '0,5', 0.5, 'a doubled separator counts once'],
    ['1.2.3', '1.2', 1.2, 'a second separator ends the number and is not kept'],
    ['2-3', '2', 2, 'a minus after the digits is no sign: it ends the number'],
    ['٣', '', null, 'an Arabic-Indic digit is not accepted: the amount stays'],
    ['３', '', null, 'a full-width digit is not accepted either'],
    ['  2 ', '2', 2, 'spaces around are dropped'],
    ['\t2\n', '2', 2, 'tabs and line breaks too'],
    ['abc', '', null, 'letters alone leave nothing: the amount stays'],
    ['', '', null, 'an emptied field changes nothing'],
    ['1,55', '1,5', 1.5, 'no more decimals than the unit allows'],
    ['0,04', '0,0', 0, 'a hundredth is cut to the unit precision first'],
    ['0,05', '0,0', 0, 'cut, not rounded: what the field shows is what is applied'],
    ['99999999999999999999', '99999999999999999999', 10, 'a huge number is the maximum'],
    ['<i>1</i>,5', '1,5', 1.5, 'markup is only its digits and separator'],
    ['1,5 кг', '1,5', 1.5, 'the unit typed after it is dropped'],
  ])('%j: the field keeps %j, the amount is %s (%s)', (text, field, amount) => {
    expect(typed(RASPBERRY, text)).toEqual({ field, amount });
  });
});

describe('amounts a shopper should not type, by the piece (шт)', () => {
  it.each<[string, string, number | null]>([
    ['1e9', '1', 1],
    ['-0', '0', 0],
    ['-2', '0', 0],
    ['٣', '', null],
    ['  2 ', '2', 2],
    ['abc', '', null],
    ['2.', '2', 2],
    ['3,7', '3', 3],
    ['1.5', '1', 1],
    ['12', '12', 10],
  ])('%j: the field keeps %j, the amount is %s', (text, field, amount) => {
    expect(typed(JAM, text)).toEqual({ field, amount });
  });
});

it('the maximum is the stock when it is below 10', () => {
  expect(typed(LOW_STOCK, '99')).toEqual({ field: '99', amount: 2.5 });
  expect(typed(LOW_STOCK, '3')).toEqual({ field: '3', amount: 2.5 });
});

/** Key by key, as the field does it: each key is added to what it shows, then filtered. */
function keyByKey(product: Limits, keys: string): { field: string; amount: number | null } {
  let field = '';
  for (const key of keys) field = sanitizeAmountText(field + key, precisionOf(product));
  const parsed = parseAmountText(field);
  return { field, amount: parsed === null ? null : clampAmount(product, parsed) };
}

describe('typed key by key, a key the field does not take changes nothing', () => {
  it.each<[string, string, string, number | null]>([
    ['кг', '1e', '1', 1],
    ['шт', '3,', '3', 3],
    ['шт', '3.', '3', 3],
    ['кг', '1,5,', '1,5', 1.5],
    ['кг', '1,5,3', '1,5', 1.5],
    ['кг', '0,,5', '0,5', 0.5],
    ['кг', '-', '', null],
    ['кг', '-2', '2', 2],
    ['шт', '2-', '2', 2],
  ])('%s, keys %j: the field shows %j, the amount is %s', (unit, keys, field, amount) => {
    expect(keyByKey(unit === 'шт' ? JAM : RASPBERRY, keys)).toEqual({ field, amount });
  });
});
