import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { obtainToken } from '../../../src/api/auth';
import { configureApi, csrfTokenFromPage } from '../../../src/api/http';
import { setToken } from '../../../src/api/token';
import {
  LOGIN_REFUSED,
  loginErrorMessage,
  WRONG_CREDENTIALS,
} from '../../../src/features/session/login-error';
import { logIn } from '../../../src/features/session/log-in';
import { handleUnauthorized, session, signIn } from '../../../src/features/session/store';
import { stubFetch } from './fetch-stub';

const anna = {
  id: 1,
  username: 'demo',
  first_name: 'Анна',
  last_name: 'Смирнова',
  email: 'demo@example.com',
};

// The server answered, with an error; or it did not answer at all.
const SERVER_ERROR =
  'Не удалось войти: сервер магазина ответил ошибкой. Попробуйте ещё раз чуть позже.';
const NO_ANSWER =
  'Не удалось войти: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.';

/** One answer of POST auth/token/: a status (200 gives token t-new) or a lost connection. */
type TokenReply = 200 | 400 | 401 | 403 | 500 | 'network-error';

/** A backend that answers the login calls with `replies`, in order, and knows the user. */
function backend(replies: TokenReply[]) {
  const queue = [...replies];
  return stubFetch((call) => {
    if (call.path === '/api/auth/user/me/') return { status: 200, body: anna };
    // Where a fresh CSRF token comes from.
    if (call.path === '/api/catalog/basket') return { status: 200, body: {} };
    const reply = queue.shift();
    if (reply === undefined) throw new Error('more login calls than the test expects');
    if (reply === 'network-error') return reply;
    if (reply === 200) return { status: 200, body: { token: 't-new' } };
    return { status: reply, body: { detail: 'Ошибка.' } };
  });
}

/** Logs in and answers what the shopper sees: the form's message, or «logged in». */
async function outcome(): Promise<string> {
  try {
    await logIn({ username: 'demo', password: 'secret' });
    return 'logged in';
  } catch (error) {
    return loginErrorMessage(error);
  }
}

beforeEach(() => {
  configureApi({
    baseURL: '/api',
    csrfToken: csrfTokenFromPage,
    onUnauthorized: handleUnauthorized,
  });
  window.history.replaceState(null, '', '/login/');
});
afterEach(() => {
  vi.unstubAllGlobals();
  // The token module keeps a copy in memory besides localStorage (which setup.ts clears).
  setToken(null);
  session.token = null;
  session.user = null;
});

describe('logging in: retries and messages', () => {
  it.each<[string, string | null, TokenReply[], string, (string | null)[]]>([
    // what happens,                            stored token, answers, shown, Authorization sent
    ['wrong credentials, DRF 400', null, [400], WRONG_CREDENTIALS, [null]],
    ['wrong credentials, a token backend’s 401', null, [401], WRONG_CREDENTIALS, [null]],
    [
      'a stale token, then success without it',
      't-old',
      [401, 200],
      'logged in',
      ['Token t-old', null],
    ],
    ['a stale token, then DRF 400', 't-old', [401, 400], WRONG_CREDENTIALS, ['Token t-old', null]],
    ['a stale token, then 401', 't-old', [401, 401], WRONG_CREDENTIALS, ['Token t-old', null]],
    ['a stale token, then 500', 't-old', [401, 500], SERVER_ERROR, ['Token t-old', null]],
    [
      'a valid token and wrong credentials (400)',
      't-old',
      [400],
      WRONG_CREDENTIALS,
      ['Token t-old'],
    ],
    ['a server error', null, [500], SERVER_ERROR, [null]],
    ['a server error with a token stored', 't-old', [500], SERVER_ERROR, ['Token t-old']],
    [
      'a stale CSRF token (403), then success with a fresh one',
      null,
      [403, 200],
      'logged in',
      [null, null],
    ],
    [
      'a CSRF refusal (403) twice: refused, not «no answer»',
      null,
      [403, 403],
      LOGIN_REFUSED,
      [null, null],
    ],
    [
      'a stale token, then a stale CSRF token, then success',
      't-old',
      [401, 403, 200],
      'logged in',
      ['Token t-old', null, null],
    ],
    ['a lost connection', null, ['network-error'], NO_ANSWER, [null]],
  ])('%s', async (_what, stored, replies, shown, authorizations) => {
    if (stored) signIn(stored);
    const calls = backend(replies);

    expect(await outcome()).toBe(shown);

    const logins = calls.filter((call) => call.path === '/api/auth/token/');
    expect(logins.map((call) => call.authorization)).toEqual(authorizations);
    // The password goes out once per login attempt the table allows, never more.
    expect(logins.every((call) => (call.body as { password: string }).password === 'secret')).toBe(
      true,
    );
    if (shown === 'logged in') {
      expect(session.token).toBe('t-new');
      expect(session.user).toEqual(anna);
    } else {
      expect(session.token).not.toBe('t-new');
    }
  });

  it('fetches a fresh CSRF token between a refused login and its second try', async () => {
    const calls = backend([403, 200]);
    expect(await outcome()).toBe('logged in');
    expect(calls.map((call) => `${call.method} ${call.path}`).slice(0, 3)).toEqual([
      'POST /api/auth/token/',
      'GET /api/catalog/basket',
      'POST /api/auth/token/',
    ]);
  });

  it('does not call a 401 to a call that carried a token wrong credentials', async () => {
    // Only logIn's first try can carry one, and it retries; the message must not blame the
    // password for a refused token if such an error ever reaches the form, nor the connection:
    // the server answered.
    signIn('t-old');
    backend([401]);
    const error = await obtainToken({ username: 'demo', password: 'secret' }).catch(
      (failure: unknown) => failure,
    );
    expect(loginErrorMessage(error)).toBe(SERVER_ERROR);
  });
});
