// Timestamps as the backend sends them: ISO 8601 in the shop's time zone (Moscow, UTC+3, no DST).
const SHOP_OFFSET_MINUTES = 3 * 60;

/** `2026-11-20T14:05:00+03:00` for the given moment. */
export function shopIso(date: Date): string {
  const local = new Date(date.getTime() + SHOP_OFFSET_MINUTES * 60_000);
  return `${local.toISOString().slice(0, 19)}+03:00`;
}

export const nowIso = (): string => shopIso(new Date());

/** The moment `daysAgo` days before `from`, at `HH:MM` shop time. */
export function shopDaysAgo(from: Date, daysAgo: number, time: string): Date {
  const [hours = 12, minutes = 0] = time.split(':').map(Number);
  const local = new Date(from.getTime() + SHOP_OFFSET_MINUTES * 60_000);
  local.setUTCDate(local.getUTCDate() - daysAgo);
  local.setUTCHours(hours, minutes, 0, 0);
  return new Date(local.getTime() - SHOP_OFFSET_MINUTES * 60_000);
}
