import { LOGIN_PATH } from '../../api/http';
import { sameOriginPath } from '../../lib/same-origin-path';
import { paths } from '../../lib/paths';

/**
 * Where to go after logging in: `raw` (the `next_page` parameter) when it is a path on this
 * site (the shop's one guard, src/lib/same-origin-path.ts), otherwise `/`.
 */
export function safeNextPage(raw: string | null | undefined): string {
  const path = sameOriginPath(raw);
  // Coming back to the login form after logging in would look like the login failed; the
  // router opens it at any letter case and with or without the slash.
  const page = new URL(path, 'https://shop.invalid').pathname.toLowerCase();
  return page === LOGIN_PATH || page === paths.login.pattern ? paths.home() : path;
}
