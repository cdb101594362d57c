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
    ['1e9', '19', 10, 'the letter is dropped; 19 is clamped to the maximum of 10'],
    ['-0', '0', 0, 'the minus is dropped; 0 removes the line (spec: below 0 becomes 0)'],
    ['-5', '5', 5, 'a minus is never taken as a sign'],
    ['0,,5', '0,5', 0.5, 'the second separator is dropped'],
    ['1.2.3', '1.2', 1.2, 'only one separator, one decimal'],
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
  ])('%j: the field keeps %j, the amount is %s (%s)', (text, field, amount) => {
    expect(typed(RASPBERRY, text)).toEqual({ field, amount });
  });
});

describe('amounts a shopper should not type, by the piece (шт)', () => {
  it.each<[string, string, number | null]>([
    ['1e9', '19', 10],
    ['-0', '0', 0],
    ['٣', '', null],
    ['  2 ', '2', 2],
    ['abc', '', null],
    ['2.', '2', 2],
  ])('%j: the field keeps %j, the amount is %s', (text, field, amount) => {
    expect(typed(JAM, text)).toEqual({ field, amount });
  });
});

it('the maximum is the stock when it is below 10', () => {
  expect(typed(LOW_STOCK, '1e9')).toEqual({ field: '19', amount: 2.5 });
  expect(typed(LOW_STOCK, '3')).toEqual({ field: '3', amount: 2.5 });
});
