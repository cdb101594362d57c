// The server's one writer of the shop's own cookies (src/lib/cookie-table.ts): a Set-Cookie line
// from the cookie's row, for the host's forms and pages and for the entry's own calls. Secure
// when the visitor's page is served over https (host/process/request-scheme.ts decides the scheme).
import { parseSetCookie, stringifySetCookie } from 'cookie';
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

/**
 * Whether a Set-Cookie line of the backend's may reach a visitor of the shop at `host` (its Host,
 * a port or not): it names no domain, or exactly the shop's own. Another site's is refused by
 * browsers anyway, and a parent domain's (`.example.com` for shop.example.com) would reach every
 * site beside the shop.
 */
export function isShopDomainCookie(line: string, host: string): boolean {
  const { domain } = parseSetCookie(line);
  if (!domain) return true;
  const hostname = host.replace(/:\d*$/, '').replace(/^\[|\]$/g, '');
  return domain.replace(/^\./, '').toLowerCase() === hostname.toLowerCase();
}
