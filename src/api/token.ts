import { COOKIES } from '../lib/cookie-table';
import { readCookie, writeCookie } from '../lib/cookies';

// The auth token lives in localStorage under `jwt` (spec §3), with a cookie mirror of the same
// name that the shop's server reads: it renders the visitor's own basket and orders, and handles
// their forms before the app's code arrives. A login made by such a form (no JavaScript yet) is
// only in the cookie, so the cookie counts too. Reads never throw: storage can be unavailable
// (private mode, Node in contract tests), and then the token lives in memory only.
export const TOKEN_KEY = COOKIES.token.name;
const KEY = TOKEN_KEY;
// eslint-disable-next-line no-restricted-syntax -- module state: the browser tab's one token when storage is refused
let memoryToken: string | null = null;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const hasDocument = () => typeof document !== 'undefined';

/**
 * The cookie first: a login posted without the app (the server's) is newer than storage's. An
 * empty value counts as none: a cleared cookie can still read as `jwt=` until it expires.
 */
export function getToken(): string | null {
  return (hasDocument() ? readCookie(KEY) : null) || storage()?.getItem(KEY) || memoryToken || null;
}

export function setToken(token: string | null): void {
  memoryToken = token;
  if (hasDocument()) writeCookie(COOKIES.token, token);
  const store = storage();
  if (!store) return;
  if (token === null) store.removeItem(KEY);
  else store.setItem(KEY, token);
}

/** Writes the token's cookie mirror again (a login from before it existed; a fresh 30 days). */
export function mirrorToken(): void {
  const token = getToken();
  if (token) setToken(token);
}
