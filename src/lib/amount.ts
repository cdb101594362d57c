import type { Product } from '../api/types';
import { numberText } from './number-text';
import { roundTo } from './round';

// Basket amount rules (spec §5, §9): minimum 0, maximum min(rest, 10); pieces go by 1 and are
// whole, other units go by unit_step (or 0.1) with one decimal place. Amounts are binary floats,
// so every result is rounded back to its precision: 0.1 + 0.2 is 0.3 here, never 0.30000000000000004.
export const MAX_AMOUNT = 10;
export const DEFAULT_STEP = 0.1;

type Unit = Pick<Product, 'unit' | 'unit_step'>;
type Limits = Pick<Product, 'unit' | 'unit_step' | 'rest'>;

export function isPieceUnit(unit: string): boolean {
  return unit.trim().toLowerCase() === 'шт';
}

/** 1 for pieces, otherwise the product's unit_step or 0.1. */
export function stepOf(product: Unit): number {
  if (isPieceUnit(product.unit)) return 1;
  return product.unit_step && product.unit_step > 0 ? product.unit_step : DEFAULT_STEP;
}

function decimalsOf(value: number): number {
  const text = String(value);
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  return text.split('.')[1]?.length ?? 0;
}

/**
 * Decimal places a shopper may type: 0 for pieces, 1 for other units. A step finer than 0.1
 * (none in the catalogue) widens it, or that step could not be typed at all.
 */
export function precisionOf(product: Unit): number {
  if (isPieceUnit(product.unit)) return 0;
  return Math.max(1, decimalsOf(stepOf(product)));
}

/** Whole steps in `value`, tolerating float noise (0.3 / 0.1 is 2.9999999999999996). */
function stepsIn(value: number, step: number): number {
  return Number((value / step).toPrecision(12));
}

/**
 * The largest amount a shopper may put in the basket: the stock, but at most 10, and on the
 * step grid (rest 2.25 with step 0.1 allows 2.2), because the server accepts nothing else.
 */
export function maxAmountOf(product: Limits): number {
  const limit = Math.max(0, Math.min(product.rest, MAX_AMOUNT));
  const step = stepOf(product);
  return roundTo(Math.floor(stepsIn(limit, step)) * step, precisionOf(product));
}

/** True when one step fits under the maximum, so the product can be added at all. */
export function canAdd(product: Limits): boolean {
  return maxAmountOf(product) >= stepOf(product);
}

/**
 * Any wished-for amount made valid: below 0 becomes 0, above the maximum becomes the maximum,
 * and it lands on the nearest step (a positive amount never rounds down to nothing).
 */
export function clampAmount(product: Limits, value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  const step = stepOf(product);
  const max = maxAmountOf(product);
  const steps = Math.max(1, Math.round(stepsIn(value, step)));
  return Math.min(roundTo(steps * step, precisionOf(product)), max);
}

/** The amount after plus: one step more, never above the maximum. */
export function increased(product: Limits, amount: number): number {
  return clampAmount(product, amount + stepOf(product));
}

/** The amount after minus: one step less, never below 0. */
export function decreased(product: Limits, amount: number): number {
  const next = roundTo(amount - stepOf(product), precisionOf(product));
  return next <= 0 ? 0 : clampAmount(product, next);
}

/** Plus is disabled once another step would pass the maximum. */
export function canIncrease(product: Limits, amount: number): boolean {
  return roundTo(amount + stepOf(product), precisionOf(product)) <= maxAmountOf(product);
}

/** Minus shows while the amount is above one step; at one step or less, delete shows instead. */
export function showsMinus(product: Unit, amount: number): boolean {
  return roundTo(amount, precisionOf(product)) > stepOf(product);
}

/**
 * What the amount field keeps of typed or pasted text: digits and one decimal separator (`,` or
 * `.`), with at most `precision` decimals (spec §5). The number is read from the left, and
 * anything else ends it: digits after that are never joined on (pasted `2e3` is 2, not 23;
 * pasted pieces `3,7` are 3, not 37), and a key that would add it changes nothing.
 * - Digits are 0–9 only. Spaces (padding, a `1 000` gap) and other characters (letters, a unit,
 *   markup) are dropped, so `٣` or `abc` alone leave nothing, which changes nothing.
 * - A separator doubled right after the first (`0,,5`) counts once. Pieces (precision 0) take
 *   no separator at all.
 * - A minus before the digits means an amount below 0, which becomes 0 (spec §4); a minus alone
 *   or a plus is dropped.
 */
export function sanitizeAmountText(text: string, precision: number): string {
  let negative = false;
  let whole = '';
  let separator = '';
  let fraction = '';
  for (const char of text) {
    const started = whole !== '' || separator !== '';
    if (char >= '0' && char <= '9') {
      if (!separator) whole += char;
      else if (fraction.length < precision) fraction += char;
    } else if (char === ',' || char === '.') {
      if (precision === 0 || fraction !== '') break;
      if (!separator) separator = char;
    } else if (char === '-' || char === '+' || char === 'e' || char === 'E') {
      if (started) break;
      if (char === '-') negative = true;
    }
  }
  const kept = whole + separator + fraction;
  return negative && /\d/.test(kept) ? '0' : kept;
}

/**
 * The number in amount text as the field keeps it (`1,5`, `1.5`, `,5`, `2.`), or null when
 * there is none.
 */
export function parseAmountText(text: string): number | null {
  const clean = text.trim().replace(',', '.');
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(clean)) return null;
  return Number(clean);
}

/** `1,5` or `2`: Russian decimal comma, no grouping, no float noise, no trailing zeros. */
export function formatAmount(amount: number, precision: number): string {
  return numberText(amount, precision, { grouping: false });
}

/** Line total (spec §9): amount times price, to 2 decimals. */
export function lineSum(amount: number, price: number): number {
  return roundTo(amount * price, 2);
}
