import { type $Fetch, FetchError, ofetch } from 'ofetch';
import { readCookie } from '../lib/cookies';
import { getToken, setToken } from './token';
import { paths } from '../lib/paths';

// The ONE HTTP client of the app (spec §7): base /api, no timeout, `Token {token}` auth, the
// anti-forgery header on unsafe methods, and any 401 logs out and sends the visitor to /login/.

export interface ApiConfig {
  /** Where /api lives. The browser uses the same origin; contract tests point it elsewhere. */
  baseURL: string;
  /** Reads the anti-forgery token; the default reads the page's cookie. */
  csrfToken: () => string | null;
  /** Called on any 401 after the token is cleared: the app registers its logout and redirect. */
  onUnauthorized: () => void;
}

/**
 * What src/api's functions call through: this module's client in the browser (and in the contract
 * tests), or the server's client of one request (src/server-entry/backend-calls.ts).
 */
export type Api = $Fetch;

export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The calls about one shopper's own basket, orders and login (spec §7), by their paths. */
const SHOPPERS_OWN_PATH = /\/api\/(catalog\/(basket|total_price|order_)|auth\/)/;

/**
 * Whether a call to the backend (`path`: its URL's path, `…/api/…`) is the shopper's own, or a
 * write: the shop's server keeps connections to the backend for these
 * (host/backend/backend-share.ts), so that no flood of catalogue or search calls starves a basket
 * change or a checkout. A path made up to look like one gains only those connections, within its
 * address's share.
 */
export function isShoppersOwnCall(method: string, path: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase()) || SHOPPERS_OWN_PATH.test(path);
}
export const LOGIN_PATH = paths.login();

/**
 * Django's `csrftoken` cookie, read at each call: Django rotates it at login, so a token kept from
 * earlier would be refused afterwards.
 */
export function csrfTokenFromPage(): string | null {
  if (typeof document === 'undefined') return null;
  return readCookie('csrftoken');
}

/** The login URL for a 401 on `path`, or null when the visitor is already on the login page. */
export function loginRedirectFor(path: string): string | null {
  if (path === LOGIN_PATH || path.startsWith(`${LOGIN_PATH}?`)) return null;
  // Slashes may stand in a query as they are (RFC 3986): `next_page=/order_status` reads as the
  // spec writes it; `?`, `&`, `#` and the rest of the path's own query stay encoded.
  return `${LOGIN_PATH}?next_page=${encodeURIComponent(path).replaceAll('%2F', '/')}`;
}

const config: ApiConfig = {
  baseURL: '/api',
  csrfToken: csrfTokenFromPage,
  onUnauthorized: () => {},
};

export function configureApi(changes: Partial<ApiConfig>): void {
  Object.assign(config, changes);
}

export const http = ofetch.create({
  timeout: undefined,
  // No silent retries: a failed call shows its message and a `Повторить` button at once.
  retry: 0,
  onRequest({ options }) {
    options.baseURL = config.baseURL;
    const headers = new Headers(options.headers);
    headers.set('Accept', 'application/json');
    const token = getToken();
    if (token) headers.set('Authorization', `Token ${token}`);
    if (UNSAFE_METHODS.has((options.method ?? 'GET').toUpperCase())) {
      const csrf = config.csrfToken();
      if (csrf) headers.set('X-CSRFToken', csrf);
    }
    options.headers = headers;
  },
  onResponseError({ options, response }) {
    if (response.status !== 401) return;
    // A late 401 for a token that has since been replaced (a new login) says nothing about
    // the current session; only the token that was refused is dropped.
    const sent = new Headers(options.headers).get('Authorization');
    const current = getToken();
    if (current !== null && sent !== `Token ${current}`) return;
    setToken(null);
    config.onUnauthorized();
  },
});

/** A call of spec §7 without parameters: GET `path`, with the browser's client unless given one. */
export const getter =
  <T>(path: string) =>
  (api: Api = http) =>
    api<T>(path);

/** The HTTP status of a failed call, or undefined for a network error. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof FetchError ? error.statusCode : undefined;
}

/** DRF-style field errors of a 400 answer, when the body has them. */
export function fieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof FetchError) || error.statusCode !== 400) return {};
  const data: unknown = error.data;
  if (!data || typeof data !== 'object') return {};
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(data)) {
    if (Array.isArray(messages)) result[field] = messages.map(String);
    else if (typeof messages === 'string') result[field] = [messages];
  }
  return result;
}
