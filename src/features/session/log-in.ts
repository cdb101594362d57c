// The login call, apart from the session store: it loads with the login page, not the shell.
import { errorStatus } from '../../api/http';
import type { Credentials, TokenResponse } from '../../api/types';
import { sentToken } from './login-error';
import { obtainTokenWithFreshCsrf } from './obtain-token';
import { clearSession, loadUser, signIn } from './store';

/**
 * Exchanges the credentials for a token (POST auth/token/), stores it and loads the user.
 * A refused CSRF token is fetched anew and the call tried once more (obtain-token.ts). Throws
 * what the call throws: 400 (or a tokenless 401) for wrong credentials, a 403 still refused, a
 * network or server error otherwise.
 */
export async function logIn(credentials: Credentials): Promise<void> {
  let answer: TokenResponse;
  try {
    answer = await obtainTokenWithFreshCsrf(credentials);
  } catch (error) {
    // DRF authenticates the login call too, so a stale stored token gets a 401 there: only then
    // is the same call worth one more try, without the token. A 401 to a call that carried no
    // token is the backend refusing the credentials, and the password must not be sent twice.
    if (errorStatus(error) !== 401 || !sentToken(error)) throw error;
    clearSession();
    answer = await obtainTokenWithFreshCsrf(credentials);
  }
  signIn(answer.token);
  await loadUser();
}
