import { proxy } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import { getCurrentUser } from '../../api/auth';
import { loginRedirectFor } from '../../api/http';
import { getToken, setToken } from '../../api/token';
import type { User } from '../../api/types';

export interface SessionState {
  token: string | null;
  user: User | null;
}

export const session = proxy<SessionState>({ token: getToken(), user: null });

/** Loads the user when a token is stored; a 401 is handled by the HTTP client. */
export async function loadUser(): Promise<void> {
  if (!session.token) return;
  try {
    session.user = await getCurrentUser();
  } catch {
    session.user = null;
  }
}

export function signIn(token: string): void {
  setToken(token);
  session.token = token;
}

export function logout(): void {
  setToken(null);
  session.token = null;
  session.user = null;
  navigate('/');
}

/** What any 401 does (spec §6): log out and go to /login/ with the page to come back to. */
export function handleUnauthorized(): void {
  setToken(null);
  session.token = null;
  session.user = null;
  const target = loginRedirectFor(window.location.pathname + window.location.search);
  if (target) navigate(target);
}
