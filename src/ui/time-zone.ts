import { createContext, useContext } from 'react';
import { DEFAULT_TIME_ZONE } from '../lib/shop-time-zone';

/**
 * The shop's time zone, as the page was given it (src/app/App.tsx provides it): the server's
 * render and the browser's read the same one, so a date rendered on the server hydrates as is.
 */
export const TimeZoneContext = createContext(DEFAULT_TIME_ZONE);

export function useShopTimeZone(): string {
  return useContext(TimeZoneContext);
}
