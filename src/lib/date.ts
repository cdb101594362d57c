// Order dates as a Russian shopper reads them (spec §9), in the shop's time zone: the shop is in
// one city, and an order placed at 10:08 there reads 10:08 on any phone, whatever zone the phone
// is set to. The server and the browser format with the same zone (SHOP_TIME_ZONE, embedded in
// the page), so a server-rendered date and the hydrated one agree.
import { DEFAULT_TIME_ZONE, shopTimeZone } from './shop-time-zone';

const formatIn = (timeZone: string) =>
  new Intl.DateTimeFormat('ru-RU', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Moscow`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatIn(zone);
    return true;
  } catch {
    return false;
  }
}

// eslint-disable-next-line no-restricted-syntax -- module state: a cache of the formatter for the zone last asked
let cached: { zone: string; format: Intl.DateTimeFormat } | undefined;

/** `20.11.2026, 14:05` for an ISO date-time; the raw text when it is not a date. */
export function formatOrderDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const zone = shopTimeZone();
  if (cached?.zone !== zone) {
    // An unknown zone keeps the default rather than breaking the page.
    cached = { zone, format: formatIn(isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE) };
  }
  return cached.format.format(date);
}
