/**
 * Rounds to `digits` decimals, half away from zero, as a Decimal backend does. Binary floats
 * miss most decimals by a hair (1.005 is stored as 1.00499999999999989…, 0.3 × 890 comes out as
 * 266.99999999999997), so the scaled value is first read back to 15 significant digits, all a
 * double holds for certain: that drops only the noise of the last bits, and 1.005 rounds to 1.01.
 * The one rounding of the app and the stub: money, line totals and basket amounts all use it.
 */
export function roundTo(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  const rounded = Math.round(scaled) / factor;
  // No -0: a tiny negative rounds to a plain 0, which prints and compares as 0.
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}
