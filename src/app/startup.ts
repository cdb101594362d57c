import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { configureApi } from '../api/http';
import { mirrorToken } from '../api/token';
import { COOKIES } from '../lib/cookie-table';
import { readCookie, writeCookie } from '../lib/cookies';
import { type BasketStore, lineCount } from '../features/basket/store';
import { handleUnauthorized, loadUser, session } from '../features/session';

/** The baskets started: each once, however often React runs the effect that starts it. */
const started = new WeakSet<BasketStore>();

/**
 * Start-up (spec §2, §7): the basket list with its total, and the user when a token is stored.
 * The basket belongs to the session or to the logged-in user, so it is fetched again whenever
 * the token changes (login, logout, a 401).
 */
export function startApp(store: BasketStore): void {
  if (started.has(store)) return;
  started.add(store);
  const { state: basket, loadBasket, refreshBasket } = store;
  configureApi({ onUnauthorized: handleUnauthorized });
  mirrorToken();
  // A basket the server rendered is already shown: fetched again behind it, it keeps its
  // controls usable.
  void (basket.loaded ? refreshBasket() : loadBasket());
  void loadUser();
  subscribeKey(session, 'token', () => void loadBasket());
  // The basket's cookie follows the basket: a page loaded later is the visitor's own while it has
  // lines, and the same as everyone's once it has none (a shared cache may serve it). The store
  // changes its lines in place as often as it replaces them, so every change of the basket is
  // looked at, not only a new `lines` object; the cookie is written only when it is wrong.
  subscribe(basket, () => {
    // A basket that never loaded (the backend failed) says nothing about the cookie: dropping it
    // then would hand the visitor the shared copy of their next page, without their basket.
    if (!basket.loaded) return;
    const hasLines = lineCount(basket.lines) > 0;
    if (hasLines !== Boolean(readCookie(COOKIES.basket.name))) {
      writeCookie(COOKIES.basket, hasLines ? '1' : null);
    }
  });
  // A page the browser brings back from its back/forward cache shows the basket as it was then.
  addEventListener('pageshow', (event) => {
    if (event.persisted) void refreshBasket();
  });
}
