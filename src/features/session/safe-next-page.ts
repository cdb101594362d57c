import { LOGIN_PATH } from '../../api/http';

const HOME = '/';
// Browsers drop tabs and line breaks inside URLs and read `\` as `/`, so `/\t/evil` or `/\evil`
// would become `//evil`: a path that carries any of them is not trusted at all.
function hasUnsafeCharacter(path: string): boolean {
  for (const char of path) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
// Any origin works as the base: the point is only to see whether the path leaves it.
const PROBE_ORIGIN = 'https://shop.invalid';

/**
 * Where to go after logging in: `raw` (the `next_page` parameter) when it is a path on this
 * site, otherwise `/`. Guards against an open redirect through `/login/?next_page=…`.
 */
export function safeNextPage(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return HOME;
  if (hasUnsafeCharacter(raw)) return HOME;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return HOME;
  }
  if (url.origin !== PROBE_ORIGIN) return HOME;
  // `/.//evil.example` resolves to the path `//evil.example`, which a later reload or link
  // would read as another host.
  if (url.pathname.startsWith('//')) return HOME;
  // Coming back to the login form after logging in would look like the login failed; the
  // router opens it at any letter case and with or without the slash.
  const path = url.pathname.toLowerCase();
  if (path === LOGIN_PATH || path === '/login') return HOME;
  return raw;
}
