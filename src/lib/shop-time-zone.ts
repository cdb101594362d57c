// The shop's time zone (SHOP_TIME_ZONE), set once at start-up from the server's setting, on the
// server and in the browser alike. Kept apart from the date formatting (src/lib/date.ts), which
// loads only with the pages that show dates.
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

let current = DEFAULT_TIME_ZONE;

export function setShopTimeZone(zone: string): void {
  current = zone;
}

export function shopTimeZone(): string {
  return current;
}
