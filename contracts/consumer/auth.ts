// Auth calls (src/api/auth.ts): DRF's obtain_auth_token, its 400 for wrong credentials (the app
// shows «Неверный логин или пароль»), and the current user for a token.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import { userBody } from '../support/bodies';
import { USER_TOKEN } from '../support/constants';
import { contract } from '../support/consumer';
import { loginErrorMessage, WRONG_CREDENTIALS } from '../../src/features/session/login-error';
import { failure } from '../support/errors';
import { DEMO_CREDENTIALS, DEMO_USER } from '../support/examples';
import { STATES } from '../support/states';

const userExists = { name: STATES.user, params: { ...DEMO_CREDENTIALS } };
const WRONG = { username: DEMO_CREDENTIALS.username, password: 'wrong-password' };

export function authContracts(): void {
  describe('auth', () => {
    contract({
      description: 'POST /api/auth/token/: valid credentials',
      given: [userExists],
      calls: 'obtainToken',
      request: { method: 'POST', path: '/api/auth/token/', body: DEMO_CREDENTIALS },
      response: { status: 200, body: { token: M.string(USER_TOKEN) } },
      run: async ({ api }) => {
        expect(await api.obtainToken(DEMO_CREDENTIALS)).toEqual({ token: USER_TOKEN });
      },
    });

    contract({
      description: 'POST /api/auth/token/: a wrong password (400 or 401)',
      given: [userExists],
      calls: 'obtainToken',
      request: { method: 'POST', path: '/api/auth/token/', body: WRONG },
      // The status is what the login page reads; DRF's `non_field_errors` is not shown. DRF's
      // obtain_auth_token answers 400, other token backends 401: both read «Неверный логин или
      // пароль» (src/features/session/login-error.ts).
      response: { status: 400, orStatus: [401] },
      run: async ({ api }) => {
        const error = await failure(api.obtainToken(WRONG));
        expect(loginErrorMessage(error)).toBe(WRONG_CREDENTIALS);
      },
    });

    contract({
      description: 'GET /api/auth/user/me/: the user of the token',
      given: [
        { name: STATES.userToken, params: { token: USER_TOKEN, username: DEMO_USER.username } },
      ],
      calls: 'getCurrentUser',
      visitor: { token: USER_TOKEN },
      request: { method: 'GET', path: '/api/auth/user/me/' },
      response: { status: 200, body: userBody(DEMO_USER) },
      run: async ({ api }) => {
        const { username, first_name, last_name } = DEMO_USER;
        expect(await api.getCurrentUser()).toEqual({ username, first_name, last_name });
      },
    });
  });
}
