// The shop's own cookies, one row each: the browser's writer (src/lib/cookies.ts) and the
// server's (src/server-entry/cookie-lines.ts, for the host's forms and pages and the entry's calls)
// both write a cookie from its row, so it has the same lifetime and attributes whoever writes it.
// Django's own (sessionid, csrftoken) are the backend's, passed on as it set them.

export interface ShopCookie {
  name: string;
  /** How long the browser keeps it, in seconds. */
  maxAgeSeconds: number;
  /** Hidden from the page's JavaScript: only the server reads it (and the browser cannot write it). */
  httpOnly: boolean;
  /**
   * Sent over https only, whenever the page itself is served over https. Never on plain http
   * (127.0.0.1, the tests), where a browser would refuse to keep a Secure cookie.
   */
  secure: boolean;
  sameSite: 'lax';
  path: '/';
}

const DAY = 24 * 60 * 60;
/** A cookie the page's code reads and writes too. */
const shared = (name: string, maxAgeSeconds: number) =>
  ({ name, maxAgeSeconds, httpOnly: false, secure: true, sameSite: 'lax', path: '/' }) as const;
/** A cookie only the server reads and writes. */
const serverOnly = (name: string, maxAgeSeconds: number) =>
  ({ ...shared(name, maxAgeSeconds), httpOnly: true }) as const;

export const COOKIES = {
  /** The theme's mirror of local storage, so the server renders the page in it (src/app/theme-storage.ts). */
  theme: shared('theme', 365 * DAY),
  /** Spec §9: the cookie notice stays away for 30 days once accepted. */
  cookieAccepted: shared('cookieAccepted', 30 * DAY),
  /**
   * Says the visitor's basket has lines (its value `1`): their pages show their basket, so they
   * are theirs alone; without it a page is the same for everyone and a shared cache may keep it.
   * As long as Django keeps a session (two weeks); a login's basket outlives it, in the account.
   */
  basket: shared('basket', 14 * DAY),
  /**
   * The login token's mirror of local storage (src/api/token.ts), which the server reads. Django's
   * token does not expire; the mirror lasts as long as a session would be kept.
   */
  token: shared('jwt', 30 * DAY),
  /**
   * A form's message for the page it goes back to, shown once (host/forms/visitor-forms.ts). A
   * minute: long enough for a slow phone to follow the 303.
   */
  notice: serverOnly('notice', 60),
} satisfies Record<string, ShopCookie>;

/** A cookie the page's own code may write. */
export type BrowserCookie = ShopCookie & { httpOnly: false };
