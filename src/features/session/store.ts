import { proxy } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import { getCurrentUser, obtainToken } from '../../api/auth';
import { errorStatus, loginRedirectFor } from '../../api/http';
import { getToken, setToken } from '../../api/token';
import type { Credentials, TokenResponse, User } from '../../api/types';
import { sentToken } from './login-error';

export interface SessionState {
  token: string | null;
  user: User | null;
}

export const session = proxy<SessionState>({ token: getToken(), user: null });

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

function clearSession(): void {
  setToken(null);
  session.token = null;
  session.user = null;
}

/**
 * Exchanges the credentials for a token (POST auth/token/), stores it and loads the user.
 * Throws what the call throws: 400 (or a tokenless 401) for wrong credentials, a network or
 * server error otherwise.
 */
export async function logIn(credentials: Credentials): Promise<void> {
  let answer: TokenResponse;
  try {
    answer = await obtainToken(credentials);
  } catch (error) {
    // DRF authenticates the login call too, so a stale stored token gets a 401 there: only then
    // is the same call worth one more try, without the token. A 401 to a call that carried no
    // token is the backend refusing the credentials, and the password must not be sent twice.
    if (errorStatus(error) !== 401 || !sentToken(error)) throw error;
    clearSession();
    answer = await obtainToken(credentials);
  }
  signIn(answer.token);
  await loadUser();
}

/** Spec §4: logout clears the token and the user and goes to /. */
export function logout(): void {
  clearSession();
  navigate('/');
}

/** What any 401 does (spec §6): log out and go to /login/ with the page to come back to. */
export function handleUnauthorized(): void {
  clearSession();
  const target = loginRedirectFor(window.location.pathname + window.location.search);
  // Replace, not push: Back from the login form should not land on the page that just failed.
  if (target) navigate(target, { replace: true });
}
