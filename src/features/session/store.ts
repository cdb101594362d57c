import { useSyncExternalStore } from 'react';
import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { navigate } from 'wouter/use-browser-location';
import { getCurrentUser } from '../../api/auth';
import { loginRedirectFor } from '../../api/http';
import { getToken, setToken } from '../../api/token';
import type { User } from '../../api/types';
import { paths } from '../../lib/paths';

export interface SessionState {
  token: string | null;
  user: User | null;
}

export const session = proxy<SessionState>({ token: getToken(), user: null });

const onTokenChange = (onChange: () => void) => subscribeKey(session, 'token', onChange);
const hasToken = () => session.token !== null;
const serverHasNoToken = () => false;

/**
 * Whether a token is stored, which only the browser knows: false on the server and while React
 * takes the server's HTML over, then the truth. A logged-out visitor's parts are then not drawn
 * a second time after hydration, as they would be by a flag that changes there.
 */
export function useLoggedIn(): boolean {
  return useSyncExternalStore(onTokenChange, hasToken, serverHasNoToken);
}

/** Loads the user when a token is stored; a 401 is handled by the HTTP client. */
export async function loadUser(): Promise<void> {
  if (!session.token) return;
  const token = session.token;
  try {
    const user = await getCurrentUser();
    // A logout or another login while the call was running wins over its answer.
    if (session.token === token) session.user = user;
  } catch {
    if (session.token === token) session.user = null;
  }
}

export function signIn(token: string): void {
  setToken(token);
  session.token = token;
}

export function clearSession(): void {
  setToken(null);
  session.token = null;
  session.user = null;
}

/** Spec §4: logout clears the token and the user and goes to /. */
export function logout(): void {
  clearSession();
  navigate(paths.home());
}

/** What any 401 does (spec §6): log out and go to /login/ with the page to come back to. */
export function handleUnauthorized(): void {
  clearSession();
  const target = loginRedirectFor(window.location.pathname + window.location.search);
  // Replace, not push: Back from the login form should not land on the page that just failed.
  if (target) navigate(target, { replace: true });
}
