import { FetchError } from 'ofetch';
import { failureCase } from '../../api/call-failure';
import { errorStatus } from '../../api/http';
import { failureText } from '../../ui/failure-text';

export const WRONG_CREDENTIALS = 'Неверный логин или пароль';
export const USERNAME_REQUIRED = 'Введите логин';
export const PASSWORD_REQUIRED = 'Введите пароль';
/** The backend answered, and refused the login itself (403), even with a fresh CSRF token. */
export const LOGIN_REFUSED =
  'Не удалось войти: сервер отклонил запрос. Обновите страницу и попробуйте ещё раз.';

/** True when the failed request carried an `Authorization` header (a stored token). */
export function sentToken(error: unknown): boolean {
  if (!(error instanceof FetchError)) return false;
  return new Headers(error.options?.headers).has('Authorization');
}

/**
 * The message for a failed login (spec §8). DRF answers wrong credentials with 400; some token
 * backends answer 401. A 401 to a request that carried a stored token is about that token, not
 * the credentials (logIn retries it without one), so only a tokenless 401 means a wrong password.
 */
export function loginErrorMessage(error: unknown): string {
  const status = errorStatus(error);
  if (status === 400) return WRONG_CREDENTIALS;
  if (status === 401 && !sentToken(error)) return WRONG_CREDENTIALS;
  // It answered: whatever else a 403 is, the server is not silent.
  if (status === 403) return LOGIN_REFUSED;
  return failureText('Не удалось войти', failureCase(error));
}
