import { describe, expect, it } from 'vitest';
import { formatOrderDate } from '../../../src/lib/date';

describe('order dates: local date and hours:minutes', () => {
  it.each([
    ['2026-11-20T14:05:00+03:00', /^20\.11\.2026, \d{2}:05$/],
    ['2026-01-02T09:07:30Z', /^0[12]\.01\.2026, \d{2}:07$/],
  ])('%s', (iso, shape) => {
    expect(formatOrderDate(iso)).toMatch(shape);
  });

  it('uses the browser’s time zone', () => {
    const date = new Date('2026-11-20T14:05:00+03:00');
    const hh = String(date.getHours()).padStart(2, '0');
    expect(formatOrderDate('2026-11-20T14:05:00+03:00')).toBe(`20.11.2026, ${hh}:05`);
  });

  it('shows a date it cannot read as it came', () => {
    expect(formatOrderDate('вчера')).toBe('вчера');
  });
});
