import { afterAll, describe, expect, it, vi } from 'vitest';

// The app shows an order's time in the shopper's own zone, whatever zone the test machine is
// in. Each case sets the zone the "browser" is in (Node reads process.env.TZ when it changes)
// and loads the formatter afresh, since its Intl.DateTimeFormat fixes the zone when created.
const machineZone = process.env.TZ;
afterAll(() => {
  if (machineZone === undefined) delete process.env.TZ;
  else process.env.TZ = machineZone;
});

async function formatIn(zone: string) {
  process.env.TZ = zone;
  vi.resetModules();
  const { formatOrderDate } = await import('../../../src/lib/date');
  return formatOrderDate;
}

describe('order dates: local date and hours:minutes in the shopper’s zone', () => {
  it.each([
    // zone,                 backend time (Moscow),         shown
    ['Europe/Moscow', '2026-11-20T14:05:00+03:00', '20.11.2026, 14:05'],
    ['UTC', '2026-11-20T14:05:00+03:00', '20.11.2026, 11:05'],
    ['Asia/Kolkata', '2026-11-20T14:05:00+03:00', '20.11.2026, 16:35'],
    ['America/New_York', '2026-11-20T14:05:00+03:00', '20.11.2026, 06:05'],
    // The local date, not the shop's: past midnight there is the next day.
    ['Pacific/Kiritimati', '2026-11-20T14:05:00+03:00', '21.11.2026, 01:05'],
    ['Asia/Vladivostok', '2026-01-01T23:30:00+03:00', '02.01.2026, 06:30'],
    ['Europe/Moscow', '2026-01-02T09:07:30Z', '02.01.2026, 12:07'],
  ])('in %s, %s reads %s', async (zone, iso, shown) => {
    const formatOrderDate = await formatIn(zone);
    expect(formatOrderDate(iso)).toBe(shown);
  });

  it('shows a date it cannot read as it came', async () => {
    const formatOrderDate = await formatIn('Europe/Moscow');
    expect(formatOrderDate('вчера')).toBe('вчера');
  });
});
