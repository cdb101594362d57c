import { type MantineColorScheme, localStorageColorSchemeManager } from '@mantine/core';
import { COOKIES } from '../lib/cookie-table';
import { readCookie, writeCookie } from '../lib/cookies';

/** Local storage's key, as Mantine's own manager had it before the cookie mirror came. */
const KEY = 'theme';

/**
 * The theme in local storage, as before, with a cookie mirror the shop's server reads: it
 * renders the page in the stored theme (no flash, with JavaScript or without), and the footer's
 * toggle, posted before the app's code has arrived, switches the cookie's theme. A choice made
 * that way is newer than local storage's, so the cookie wins when both are there.
 */
export function themeStorage() {
  const local = localStorageColorSchemeManager({ key: KEY });
  return {
    ...local,
    get: (defaultValue: MantineColorScheme): MantineColorScheme => {
      const mirrored = typeof document === 'undefined' ? null : readCookie(COOKIES.theme.name);
      return mirrored === 'dark' || mirrored === 'light' ? mirrored : local.get(defaultValue);
    },
    set: (value: MantineColorScheme) => {
      local.set(value);
      if (value === 'dark' || value === 'light') writeCookie(COOKIES.theme, value);
    },
  };
}
