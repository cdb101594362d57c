import { LOGIN_PATH } from '../../api/http';
import { pathnameOf, sitePath } from '../../lib/site-path';

const HOME = '/';

/**
 * Where to go after logging in: `raw` (the `next_page` parameter) when it is a path on this
 * site, otherwise `/`. Guards against an open redirect through `/login/?next_page=…`.
 */
export function safeNextPage(raw: string | null | undefined): string {
  const path = sitePath(raw);
  if (path === null) return HOME;
  // Coming back to the login form after logging in would look like the login failed; the
  // router opens it at any letter case and with or without the slash.
  const pathname = pathnameOf(path);
  if (pathname === LOGIN_PATH || pathname === '/login') return HOME;
  return path;
}
