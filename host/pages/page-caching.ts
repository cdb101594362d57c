// Who may keep a page, decided once per page: a page for everyone may be kept by nginx or a CDN
// and revalidated by the browser (ETag, 304); a visitor's own is kept by no one.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * Whether the page is the same for everyone (its route is public, and the visitor has nothing of
 * their own to see: no basket, no login, no message of a form, no form posted), so that it is
 * rendered as nobody in particular and a shared cache may keep it.
 */
export function isSharedPage(publicRoute: boolean, ownCookies: boolean, posted: boolean): boolean {
  return !posted && publicRoute && !ownCookies;
}

/**
 * A page for everyone. A browser keeps it but asks again before each use (max-age=0,
 * must-revalidate: no stale window of its own, which Firefox would use to show an old theme,
 * notice or basket), and its ETag makes that question a 304 when nothing changed. nginx keeps it
 * for `seconds` (s-maxage, which it reads over max-age; it would keep nothing marked no-cache).
 * A CDN reads its own header (CDN-Cache-Control, RFC 9213): the same lifetime, and served stale
 * while it is renewed or while the instances fail.
 */
function publicPageCaching(seconds: number): Record<string, string> {
  return {
    'Cache-Control': `public, max-age=0, must-revalidate, s-maxage=${seconds}`,
    'CDN-Cache-Control': `max-age=${seconds}, stale-while-revalidate=600, stale-if-error=86400`,
  };
}

/**
 * The page's caching headers. Decided after everything that may set a cookie has run (the
 * notice read, the backend's and the form's cookies, the basket's mark). A visitor's own page
 * shows their basket (the price button, the menu), and some their orders or what they typed: no
 * cache may keep it or hand it to another visitor. An answer that sets a cookie is its visitor's
 * alone too: a CDN would hand the cookie to everyone. A page missing part of its data is no
 * cache's either: nginx goes on serving its last whole copy instead. Returns whether a shared
 * cache may keep it.
 */
export function setPageCaching(
  res: Response,
  page: { shared: boolean; whole: boolean },
  seconds: number,
): boolean {
  const keepable = page.shared && page.whole && !res.hasHeader('Set-Cookie');
  res.set(keepable ? publicPageCaching(seconds) : { 'Cache-Control': 'private, no-store' });
  // What a page varies on, for any cache that keys by Vary: its encoding, and the visitor's
  // cookies (the theme, the cookie notice, a basket or a login). nginx keys on the few cookies
  // that matter instead (deploy/nginx.conf), and docs/deploy.md gives a CDN the same key.
  res.vary('Accept-Encoding').vary('Cookie');
  return keepable;
}

/**
 * Sends the page with an ETag of its own bytes, before compression (so weak: the same page in
 * any encoding). A browser that still has these bytes gets a 304 without them.
 */
export function sendPage(req: Request, res: Response, html: Buffer): void {
  res.set('ETag', `W/"${createHash('sha1').update(html).digest('base64url')}"`);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.end(html);
}
