// Numbers as Russian text, written out here rather than by Intl.NumberFormat: the browser's first
// Russian number format loads the locale's data, some 25 ms on this machine's Chromium, 100 ms on
// a phone, in the task that starts the app (issue 44). The text is ICU's for ru-RU exactly
// (tests/unit/lib/number-text.test.ts compares them), and the same in Node and every browser.
import { roundTo } from './round';

/** ICU's ru-RU group separator, and its space before a currency sign. */
export const NO_BREAK_SPACE = '\u00a0';

/**
 * `12 345,5`: `value` to at most `digits` decimals (exactly `digits` when `fixed`), rounded as
 * roundTo rounds, with the decimal comma and a no-break space between thousands (none when
 * `grouping` is false). A value that is not finite is left to Intl, which names it.
 */
export function numberText(
  value: number,
  digits: number,
  { grouping = true, fixed = false }: { grouping?: boolean; fixed?: boolean } = {},
): string {
  if (!Number.isFinite(value)) return new Intl.NumberFormat('ru-RU').format(value);
  const rounded = roundTo(value, digits);
  const [whole = '0', fraction = ''] = Math.abs(rounded).toFixed(digits).split('.');
  const shownFraction = fixed ? fraction : fraction.replace(/0+$/, '');
  const grouped = grouping ? whole.replace(/\B(?=(\d{3})+$)/g, NO_BREAK_SPACE) : whole;
  return `${rounded < 0 ? '-' : ''}${grouped}${shownFraction ? `,${shownFraction}` : ''}`;
}
