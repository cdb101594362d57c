import { describe, expect, it } from 'vitest';
import { lineTotal, round2, roundAmount } from '../../../stub-server/numbers';
import { lineSum } from '../../../src/lib/amount';
import { formatRub } from '../../../src/lib/money';
import { roundTo } from '../../../src/lib/round';

// One rounding for the app and the stub (half away from zero, as a Decimal backend does), so a
// line total, a basket total and an order sum never differ by a kopeck between them.
describe('roundTo', () => {
  it.each<[number, number, number]>([
    [1.005, 2, 1.01],
    [2.675, 2, 2.68],
    [2.135, 2, 2.14],
    [1.0049999, 2, 1],
    [0.1 + 0.2, 2, 0.3],
    [0.3 * 890, 2, 267],
    [1.1 * 2.2, 2, 2.42],
    [1.45, 1, 1.5],
    [0.125, 2, 0.13],
    [-1.005, 2, -1.01],
    [-0.001, 2, 0],
    [2.5, 0, 3],
    [0.1 * 3, 6, 0.3],
    [1234567.125, 2, 1234567.13],
  ])('roundTo(%s, %i) is %s', (value, digits, expected) => {
    expect(roundTo(value, digits)).toBe(expected);
  });

  it('leaves what is not a finite number as it is', () => {
    expect(roundTo(Number.NaN, 2)).toBeNaN();
    expect(roundTo(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the app and the stub round money alike', () => {
  it.each<[number, number, number]>([
    [0.3, 890, 267],
    [1.005, 1, 1.01],
    [1.5, 690, 1035],
    [0.7, 640, 448],
    [1.1, 2.2, 2.42],
    [2.675, 1, 2.68],
    [1.5, 99.99, 149.99],
    [2.3, 2.35, 5.41],
  ])('%s × %s is %s in both', (amount, price, sum) => {
    expect(lineSum(amount, price)).toBe(sum);
    expect(lineTotal(amount, price)).toBe(sum);
  });

  // The EPSILON trick formatRub had before rounded these half-kopecks down.
  it('formatRub shows the same kopecks as the line total', () => {
    expect(formatRub(1.005).replace(/\s/g, ' ')).toBe('1,01 ₽');
    expect(formatRub(2.135).replace(/\s/g, ' ')).toBe('2,14 ₽');
    expect(formatRub(lineSum(1.5, 99.99)).replace(/\s/g, ' ')).toBe('149,99 ₽');
    expect(formatRub(1.5 * 99.99).replace(/\s/g, ' ')).toBe('149,99 ₽');
    expect(formatRub(0.3 * 890).replace(/\s/g, ' ')).toBe('267 ₽');
    expect(formatRub(0.1 + 0.2).replace(/\s/g, ' ')).toBe('0,30 ₽');
    expect(round2(1.005)).toBe(1.01);
    expect(roundAmount(0.1 + 0.2)).toBe(0.3);
  });
});
