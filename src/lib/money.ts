import { roundTo } from './round';

const whole = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  maximumFractionDigits: 0,
});
const cents = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** `1 250 ₽` for whole roubles, `1 250,50 ₽` otherwise. */
export function formatRub(value: number): string {
  const rounded = roundTo(value, 2);
  return Number.isInteger(rounded) ? whole.format(rounded) : cents.format(rounded);
}

/** A total is worth showing only when it is a real, non-zero number. */
export function isPositiveTotal(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value !== 0;
}
