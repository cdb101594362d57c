// The login call as both logins make it: the app's (log-in.ts) and the form the shop's server
// handles without the app (src/server-entry/login-form.ts).
import { obtainToken } from '../../api/auth';
import { getBasket } from '../../api/basket';
import { type Api, errorStatus, http } from '../../api/http';
import type { Credentials, TokenResponse } from '../../api/types';

/**
 * POST auth/token/, tried once more when the backend refuses it with 403: the CSRF token sent was
 * stale or malformed (an old `csrftoken` cookie, one rotated elsewhere). The basket's GET hands
 * out a fresh one (docs/behaviour.md, "In front of a backend"), which the second try carries.
 */
export async function obtainTokenWithFreshCsrf(
  credentials: Credentials,
  api: Api = http,
): Promise<TokenResponse> {
  try {
    return await obtainToken(credentials, api);
  } catch (error) {
    if (errorStatus(error) !== 403) throw error;
    await getBasket(api);
    return obtainToken(credentials, api);
  }
}
