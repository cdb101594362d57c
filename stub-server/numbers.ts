// Money and amount arithmetic on binary floats, done the way a Decimal backend would answer,
// with the app's own rounding, so the stub and the app never differ by a kopeck.
import { roundTo } from '../src/lib/round.ts';

/** Money: 2 decimals. */
export const round2 = (value: number): number => roundTo(value, 2);

/** Amounts are compared and stored with 6 decimals, which hides float noise. */
export const roundAmount = (value: number): number => roundTo(value, 6);

/** Line total: amount times price, 2 decimals. */
export const lineTotal = (amount: number, price: number): number => round2(amount * price);
