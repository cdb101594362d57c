import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Order dates show in the shop's time zone (SHOP_TIME_ZONE, Moscow by default), whatever zone
// the shopper's phone is in. Each case sets the zone the "browser" is in (Node reads
// process.env.TZ when it changes) and loads the formatter afresh.
const machineZone = process.env.TZ;
afterAll(() => {
  if (machineZone === undefined) delete process.env.TZ;
  else process.env.TZ = machineZone;
});
afterEach(() => vi.resetModules());

async function dateModuleIn(browserZone: string) {
  process.env.TZ = browserZone;
  vi.resetModules();
  return import('../../../src/lib/date');
}

describe('order dates: the shop’s date and hours:minutes, on any phone', () => {
  it.each([
    // the phone's zone,     backend time,                  shown (Moscow)
    ['Europe/Moscow', '2026-11-20T10:08:00+03:00', '20.11.2026, 10:08'],
    ['UTC', '2026-11-20T10:08:00+03:00', '20.11.2026, 10:08'],
    ['America/New_York', '2026-11-20T10:08:00+03:00', '20.11.2026, 10:08'],
    ['Pacific/Kiritimati', '2026-11-20T22:05:00+03:00', '20.11.2026, 22:05'],
    // A backend that answers in UTC: shown at the shop's hour and date.
    ['UTC', '2026-01-01T21:30:00Z', '02.01.2026, 00:30'],
  ])('on a phone in %s, %s reads %s', async (zone, iso, shown) => {
    const { formatOrderDate } = await dateModuleIn(zone);
    expect(formatOrderDate(iso)).toBe(shown);
  });

  it('follows SHOP_TIME_ZONE as the page is given it, and keeps Moscow for an unknown zone', async () => {
    const { formatOrderDate, isTimeZone } = await dateModuleIn('UTC');
    expect(formatOrderDate('2026-11-20T10:08:00+03:00', 'Asia/Vladivostok')).toBe(
      '20.11.2026, 17:08',
    );
    // Each zone its own: the one asked for before leaves no trace.
    expect(formatOrderDate('2026-11-20T10:08:00+03:00')).toBe('20.11.2026, 10:08');
    expect(isTimeZone('Марс/Олимп')).toBe(false);
    expect(formatOrderDate('2026-11-20T10:08:00+03:00', 'Марс/Олимп')).toBe('20.11.2026, 10:08');
  });

  it('shows a date it cannot read as it came', async () => {
    const { formatOrderDate } = await dateModuleIn('Europe/Moscow');
    expect(formatOrderDate('вчера')).toBe('вчера');
  });
});
