// Money and amount arithmetic on binary floats, done the way a Decimal backend would answer.

/** Rounds to `digits` decimals, half away from zero, tolerating float noise (0.1 + 0.2). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = Math.abs(value) * factor;
  const rounded = Math.round(Number(scaled.toPrecision(15))) / factor;
  return value < 0 ? -rounded : rounded;
}

/** Money: 2 decimals. */
export const round2 = (value: number): number => roundTo(value, 2);

/** Amounts are compared and stored with 6 decimals, which hides float noise. */
export const roundAmount = (value: number): number => roundTo(value, 6);

/** Line total: amount times price, 2 decimals. */
export const lineTotal = (amount: number, price: number): number => round2(amount * price);
