// The shop's time zone (SHOP_TIME_ZONE): the server's setting, given to the app once with each
// page (its props, src/app/App.tsx) and read where dates show (src/ui/time-zone.ts). Kept apart
// from the date formatting (src/lib/date.ts), which loads only with the pages that show dates.
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';
