// The server's one writer of the shop's own cookies (src/lib/cookie-table.ts): a Set-Cookie line
// from the cookie's row, for the host's forms and pages and for the entry's own calls. Secure
// when the visitor's page is served over https (host/request-scheme.ts decides the scheme).
import { stringifySetCookie } from 'cookie';
import type { ShopCookie } from '../lib/cookie-table';

/** The Set-Cookie line that gives the visitor `cookie` with `value`. */
export function setCookieLine(cookie: ShopCookie, value: string, https: boolean): string {
  return stringifySetCookie(cookie.name, value, attributes(cookie, https, cookie.maxAgeSeconds));
}

/** The Set-Cookie line that drops `cookie` from the visitor's browser. */
export function clearCookieLine(cookie: ShopCookie, https: boolean): string {
  return stringifySetCookie(cookie.name, '', attributes(cookie, https, 0));
}

function attributes(cookie: ShopCookie, https: boolean, maxAge: number) {
  return {
    maxAge,
    path: cookie.path,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure && https,
    sameSite: cookie.sameSite,
  };
}
