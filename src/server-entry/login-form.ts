// The login form posted to the shop's server (before the app's code arrived, or without it): the
// credentials exchanged for the visitor's token, with the app's own messages.
import { getBasket } from '../api/basket';
import {
  loginErrorMessage,
  PASSWORD_REQUIRED,
  USERNAME_REQUIRED,
} from '../features/session/login-error';
import { obtainTokenWithFreshCsrf } from '../features/session/obtain-token';
import type { FormOutcome } from '../ui/page-data';
import { type BackendCalls, CSRF_COOKIE, TOKEN_COOKIE } from './backend-calls';

/** The backend did not answer in time: the visitor is not logged in. */
export const LOGIN_LATE =
  'Не удалось войти: сервер магазина не ответил вовремя. Попробуйте ещё раз чуть позже.';

export type LoginFormResult =
  | { kind: 'signed-in'; token: string }
  /** The form again with the login kept (never the password), and why. */
  | { kind: 'refused'; outcome: FormOutcome };

export async function logInByForm(
  calls: BackendCalls,
  fields: Record<string, unknown>,
): Promise<LoginFormResult> {
  // A token the visitor still carries is left out: the login must not be refused for an old one.
  calls.forget(TOKEN_COOKIE);
  const username = typeof fields.username === 'string' ? fields.username.trim() : '';
  const password = typeof fields.password === 'string' ? fields.password : '';
  const refused = (outcome: Omit<FormOutcome, 'values'>): LoginFormResult => ({
    kind: 'refused',
    outcome: { values: { username }, ...outcome },
  });
  const errors: Record<string, string> = {};
  if (!username) errors.username = USERNAME_REQUIRED;
  // As the app's field judges it (Mantine's isNotEmpty): spaces alone are no password.
  if (!password.trim()) errors.password = PASSWORD_REQUIRED;
  if (Object.keys(errors).length > 0) return refused({ errors });
  try {
    // A newcomer has no CSRF token yet, which a backend with session authentication demands of a
    // post: the basket hands one out, as it does for the basket's own forms. A stale one is
    // replaced the same way when the login is refused for it.
    if (!calls.cookies()[CSRF_COOKIE]) await getBasket(calls.api);
    const { token } = await obtainTokenWithFreshCsrf({ username, password }, calls.api);
    return { kind: 'signed-in', token };
  } catch (error) {
    return refused({ notice: calls.timedOut() ? LOGIN_LATE : loginErrorMessage(error) });
  }
}
