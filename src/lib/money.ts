import { NO_BREAK_SPACE, numberText } from './number-text';
import { roundTo } from './round';

/** `1 250 ₽` for whole roubles, `1 250,50 ₽` otherwise. */
export function formatRub(value: number): string {
  const rounded = roundTo(value, 2);
  const digits = Number.isInteger(rounded) ? 0 : 2;
  return `${numberText(rounded, digits, { fixed: true })}${NO_BREAK_SPACE}₽`;
}

/** A total is worth showing only when it is a real, non-zero number. */
export function isPositiveTotal(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value !== 0;
}
