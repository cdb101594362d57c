// Order dates as a Russian shopper reads them (spec §9), in the shop's time zone: the shop is in
// one city, and an order placed at 10:08 there reads 10:08 on any phone, whatever zone the phone
// is set to. The server and the browser format with the same zone (SHOP_TIME_ZONE, embedded in
// the page), so a server-rendered date and the hydrated one agree.
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

const formatIn = (timeZone: string) =>
  new Intl.DateTimeFormat('ru-RU', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

let orderDate = formatIn(DEFAULT_TIME_ZONE);

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Moscow`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatIn(zone);
    return true;
  } catch {
    return false;
  }
}

/** Set once at start-up, from the server's setting; an unknown zone keeps the default. */
export function setShopTimeZone(zone: string): void {
  orderDate = formatIn(isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE);
}

/** `20.11.2026, 14:05` for an ISO date-time; the raw text when it is not a date. */
export function formatOrderDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : orderDate.format(date);
}
