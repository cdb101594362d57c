// The shop's own cookies on the server (the app's table, src/lib/cookie-table.ts): read from the
// request, and written through the server's one writer (src/server-entry/cookie-lines.ts), Secure
// when the visitor's page is served over https. Both come through the app's entry.
import type { Request, Response } from 'express';
import type { Entry, ShopCookie } from '../app-entry.ts';

export type { ShopCookie };

/** What the host uses of the app's cookies. */
export type CookieApp = Pick<
  Entry,
  'COOKIES' | 'setCookieLine' | 'clearCookieLine' | 'parseCookies'
>;

/**
 * Whether the first cookie `name` in the request's Cookie header is exactly `value`: no other
 * letter case, quotes or %-escapes, and only spaces or tabs between cookies (JavaScript's \s
 * takes a no-break space too, nginx's does not). deploy/nginx.conf reads the theme and the cookie
 * notice with this same pattern for its cache key, and puts them first in a public request's
 * Cookie header, so a kept page is always the variant its key names.
 */
export function firstCookieIs(req: Request, name: string, value: string): boolean {
  return new RegExp(`^(?:(?![ \\t]*${name}=)[^;]*;)*[ \\t]*${name}=${value}(?:;|$)`).test(
    req.headers.cookie ?? '',
  );
}

/** The shop's cookie readers and writers, made once from the app's entry. */
export function shopCookies({ COOKIES, setCookieLine, clearCookieLine, parseCookies }: CookieApp) {
  /** Gives the visitor `cookie` with `value`, alongside any other cookie the answer sets. */
  function setShopCookie(req: Request, res: Response, cookie: ShopCookie, value: string): void {
    res.append('Set-Cookie', setCookieLine(cookie, value, req.secure));
  }

  /** Drops `cookie` from the visitor's browser. */
  function clearShopCookie(req: Request, res: Response, cookie: ShopCookie): void {
    res.append('Set-Cookie', clearCookieLine(cookie, req.secure));
  }

  /** The theme the visitor chose, as its cookie mirror says; light when there is none. */
  function themeOf(req: Request): 'light' | 'dark' {
    return firstCookieIs(req, COOKIES.theme.name, 'dark') ? 'dark' : 'light';
  }

  /** Whether the visitor accepted the cookie notice. */
  function cookieAcceptedBy(req: Request): boolean {
    return firstCookieIs(req, COOKIES.cookieAccepted.name, 'true');
  }

  /**
   * Whether the visitor has anything of their own for the server to show (a login, a basket, a
   * form's message): then no page of theirs is the same as everyone's. deploy/nginx.conf's
   * $page_is_private reads the same three cookies.
   */
  function hasOwnCookies(cookies: Record<string, string>): boolean {
    return [COOKIES.token, COOKIES.basket, COOKIES.notice].some((cookie) => cookies[cookie.name]);
  }

  /**
   * Keeps the basket's cookie true to the basket the page showed: set when it has lines, cleared
   * when it has none. Left as it is when the basket was not loaded.
   */
  function markBasket(
    req: Request,
    res: Response,
    cookies: Record<string, string>,
    lines: number | null,
  ): void {
    if (lines === null || lines > 0 === Boolean(cookies[COOKIES.basket.name])) return;
    if (lines === 0) clearShopCookie(req, res, COOKIES.basket);
    else setShopCookie(req, res, COOKIES.basket, '1');
  }

  /** Leaves `text` for the page a form goes back to (host/forms/visitor-forms.ts), shown once. */
  function leaveNotice(req: Request, res: Response, text: string): void {
    setShopCookie(req, res, COOKIES.notice, text);
  }

  /** The message a form left for this page, taken: the cookie goes with this answer. */
  function takeNotice(req: Request, res: Response): string | undefined {
    const raw = parseCookies(req.headers.cookie)[COOKIES.notice.name];
    if (raw === undefined) return undefined;
    clearShopCookie(req, res, COOKIES.notice);
    try {
      return decodeURIComponent(raw).slice(0, 500);
    } catch {
      return undefined;
    }
  }

  return {
    COOKIES,
    setShopCookie,
    clearShopCookie,
    themeOf,
    cookieAcceptedBy,
    hasOwnCookies,
    markBasket,
    leaveNotice,
    takeNotice,
  };
}
