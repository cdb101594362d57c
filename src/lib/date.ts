// Order dates as a Russian shopper reads them (spec §9), in the shop's time zone: the shop is in
// one city, and an order placed at 10:08 there reads 10:08 on any phone, whatever zone the phone
// is set to. The server and the browser format with the same zone (SHOP_TIME_ZONE, embedded in
// the page), so a server-rendered date and the hydrated one agree.
import { DEFAULT_TIME_ZONE } from './shop-time-zone';

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

/** A formatter by zone asked for: making one costs more than formatting a date. */
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * `20.11.2026, 14:05` for an ISO date-time in `zone` (the shop's, useShopTimeZone); the raw text
 * when it is not a date.
 */
export function formatOrderDate(iso: string, zone: string = DEFAULT_TIME_ZONE): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = formats.get(zone);
  if (!format) {
    // An unknown zone keeps the default rather than breaking the page.
    format = formatIn(isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE);
    formats.set(zone, format);
  }
  return format.format(date);
}
