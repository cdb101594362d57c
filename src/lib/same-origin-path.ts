// The one guard for every address a form sends the shopper back to (the cookie notice, the theme,
// the basket, checkout, login's next_page): a path on this site, or the home page. No open
// redirect. The browser's login page uses it too, so it stays small.

/** Longer paths go home: a Location header that big would not pass nginx's 4 KB header buffer. */
export const MAX_PATH_LENGTH = 2048;

// Any origin works as the base: the point is only to see whether the path leaves it.
const PROBE_ORIGIN = 'https://shop.invalid';

/**
 * `raw` when it is a path on this site, otherwise `/`. Refused: anything not starting with one
 * `/` (absolute URLs, `javascript:`, `//host`); a backslash, tab, line break or other control
 * character (browsers drop the ones and read `\` as `/`, so `/\host` and `/\t/host` are `//host`);
 * a path that resolves to `//host` (`/.//host`, `/x/..//host`); and an encoded slash or
 * backslash in the path (`/%2f/host`), which a server or router decoding it would read as one.
 */
export function sameOriginPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > MAX_PATH_LENGTH) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex -- these are exactly what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return '/';
  }
  const { origin, pathname } = url;
  if (origin !== PROBE_ORIGIN || pathname.startsWith('//') || /%(2f|5c)/i.test(pathname)) {
    return '/';
  }
  return raw;
}
