// The browser's own cookies. document.cookie is the browser's serialisation, not a request's
// header: this small reader and writer keep the 'cookie' package (which the server parses
// requests and writes Set-Cookie lines with, src/server-entry/cookie-lines.ts) out of the first
// view's JS budget. Each cookie is written from its row of src/lib/cookie-table.ts.
import type { BrowserCookie } from './cookie-table';

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** `value` for the cookie's lifetime; `null` drops the cookie. */
export function writeCookie(cookie: BrowserCookie, value: string | null): void {
  const maxAge = value === null ? 0 : cookie.maxAgeSeconds;
  // A past Expires as well: some engines keep a max-age=0 cookie until the clock ticks on.
  const expired = maxAge <= 0 ? '; expires=Thu, 01 Jan 1970 00:00:00 GMT' : '';
  const secure = cookie.secure && location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${cookie.name}=${encodeURIComponent(value ?? '')}; max-age=${maxAge}${expired}; path=${cookie.path}; SameSite=Lax${secure}`;
}
