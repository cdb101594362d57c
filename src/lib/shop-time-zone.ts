// The shop's time zone (SHOP_TIME_ZONE), set once at start-up from the server's setting, on the
// server and in the browser alike. Kept apart from the date formatting (src/lib/date.ts), which
// loads only with the pages that show dates.
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

// Until the server factory takes the zone once (issue 42, item 4).
// eslint-disable-next-line no-restricted-syntax -- module state: the process's time zone
let current = DEFAULT_TIME_ZONE;

export function setShopTimeZone(zone: string): void {
  current = zone;
}

export function shopTimeZone(): string {
  return current;
}
