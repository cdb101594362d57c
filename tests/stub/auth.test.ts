import { describe, expect, it } from 'vitest';
import { control, expectKeys, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile({ reset: true });

describe('auth/token/', () => {
  it('answers {token} for demo / berries2026, the same token on a second login', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status, body } = await visitor.post('/api/auth/token/', {
      username: 'demo',
      password: 'berries2026',
    });
    expect(status).toBe(200);
    const { token } = expectKeys(body, ['token']);
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    const second = await visitor.post('/api/auth/token/', {
      username: 'demo',
      password: 'berries2026',
    });
    expect(second.body).toEqual({ token });
  });

  it.each([
    ['demo', 'wrong'],
    ['nobody', 'berries2026'],
    ['DEMO', 'berries2026'],
  ])('%s / %s answers 400 non_field_errors', async (username, password) => {
    const visitor = await new Visitor(server.url).start();
    const { status, body } = await visitor.post('/api/auth/token/', { username, password });
    expect(status).toBe(400);
    expect(body).toEqual({
      non_field_errors: ['Невозможно войти с предоставленными учётными данными.'],
    });
  });

  it('missing fields answer 400 per field', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status, body } = await visitor.post('/api/auth/token/', { username: 'demo' });
    expect(status).toBe(400);
    expect(body).toEqual({ password: ['Это обязательное поле'] });
  });

  it('needs the CSRF header like every unsafe call', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status } = await visitor.post(
      '/api/auth/token/',
      { username: 'demo', password: 'berries2026' },
      { csrf: false },
    );
    expect(status).toBe(403);
  });
});

describe('auth/user/me/', () => {
  it('answers the user with a valid token', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.login();
    const { status, body } = await visitor.get('/api/auth/user/me/');
    expect(status).toBe(200);
    expect(expectKeys(body, ['id', 'username', 'first_name', 'last_name', 'email'])).toEqual({
      id: 1,
      username: 'demo',
      first_name: 'Анна',
      last_name: 'Смирнова',
      email: 'demo@example.com',
    });
  });

  it('answers 401 {detail} without a token', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status, body, headers } = await visitor.get('/api/auth/user/me/');
    expect(status).toBe(401);
    expect(body).toEqual({ detail: 'Учетные данные не были предоставлены.' });
    expect(headers.get('www-authenticate')).toBe('Token');
  });
});

describe('token authentication on every call', () => {
  it('a revoked token answers 401 Недопустимый токен. everywhere, then a new login works', async () => {
    const visitor = await new Visitor(server.url).start();
    const token = await visitor.login();
    expect((await visitor.get('/api/auth/user/me/')).status).toBe(200);
    const revoked = await control(server.url, 'POST', '/revoke', { token });
    expect(revoked.status).toBe(200);
    for (const path of ['/api/auth/user/me/', '/api/catalog/product', '/api/content/policy']) {
      const { status, body } = await visitor.get(path);
      expect(status, path).toBe(401);
      expect(body).toEqual({ detail: 'Недопустимый токен.' });
    }
    expect((await visitor.put('/api/catalog/basket/7', { amount: 1 })).status).toBe(401);
    // The app drops the token on 401 and logs in again: a new token.
    visitor.token = null;
    const fresh = await visitor.login();
    expect(fresh).not.toBe(token);
    expect((await visitor.get('/api/auth/user/me/')).status).toBe(200);
  });

  it('an unknown token answers 401; a malformed header too; another scheme is anonymous', async () => {
    const visitor = await new Visitor(server.url).start();
    visitor.token = 'f'.repeat(40);
    expect(await visitor.get('/api/catalog/section_root')).toMatchObject({
      status: 401,
      body: { detail: 'Недопустимый токен.' },
    });
    visitor.token = null;
    const bare = await visitor.get('/api/catalog/basket', { headers: { Authorization: 'Token' } });
    expect(bare.status).toBe(401);
    const spaced = await visitor.get('/api/catalog/basket', {
      headers: { Authorization: 'Token a b' },
    });
    expect(spaced.status).toBe(401);
    const bearer = await visitor.get('/api/catalog/basket', {
      headers: { Authorization: 'Bearer abc' },
    });
    expect(bearer.status).toBe(200);
  });

  it('revoking an unknown token through the controls answers 404', async () => {
    expect((await control(server.url, 'POST', '/revoke', { token: 'nope' })).status).toBe(404);
  });
});

/** The `sessionid` an answer sets, if it sets one. */
function sessionCookieOf(headers: Headers): string | undefined {
  const line = headers.getSetCookie().find((cookie) => cookie.startsWith('sessionid='));
  return line?.split(';')[0]?.slice('sessionid='.length);
}

type Basket = Record<string, { amount: number }>;

interface StubState {
  sessions: Record<string, unknown>;
  baskets: Record<string, unknown>;
  orders: { owner: string }[];
}

async function stubState(): Promise<StubState> {
  return (await control(server.url, 'GET', '/state')).body as StubState;
}

describe('sessions: only the stub’s own keys, a new key on login (session fixation)', () => {
  const PLANTED = 'plantedbyattacker0001';

  it('keeps a key it gave out: no new cookie on the next call', async () => {
    const visitor = await new Visitor(server.url).start();
    const key = visitor.jar.get('sessionid');
    expect(key).toMatch(/^[a-z0-9]{32}$/);
    const again = await visitor.get('/api/catalog/basket');
    expect(sessionCookieOf(again.headers)).toBeUndefined();
    expect(visitor.jar.get('sessionid')).toBe(key);
  });

  it('replaces a key the client made up with a new one of its own', async () => {
    const visitor = new Visitor(server.url);
    visitor.jar.set('sessionid', PLANTED);
    const answer = await visitor.get('/api/catalog/basket');
    const issued = sessionCookieOf(answer.headers);
    expect(issued).toMatch(/^[a-z0-9]{32}$/);
    expect(issued).not.toBe(PLANTED);
    // The new key holds from then on.
    expect(sessionCookieOf((await visitor.get('/api/catalog/basket')).headers)).toBeUndefined();
  });

  it('a basket filled under a planted key never reaches the account of whoever logs in with it', async () => {
    const attacker = await new Visitor(server.url).start();
    attacker.jar.set('sessionid', PLANTED);
    expect((await attacker.put('/api/catalog/basket/7', { amount: 2 })).status).toBe(200);
    expect(attacker.jar.get('sessionid')).not.toBe(PLANTED);

    const victim = await new Visitor(server.url).start();
    victim.jar.set('sessionid', PLANTED);
    await victim.login();
    expect((await victim.get('/api/catalog/basket')).body).toEqual({});
    expect(Object.keys((await stubState()).baskets)).not.toContain(`session:${PLANTED}`);
  });

  it('logging in gives the session a new key, the basket stays with the user, the old key dies', async () => {
    const visitor = await new Visitor(server.url).start();
    const before = visitor.jar.get('sessionid')!;
    await visitor.put('/api/catalog/basket/22', { amount: 1.2 });

    const login = await visitor.post('/api/auth/token/', {
      username: 'demo',
      password: 'berries2026',
    });
    expect(login.status).toBe(200);
    const after = sessionCookieOf(login.headers);
    expect(after).toMatch(/^[a-z0-9]{32}$/);
    expect(after).not.toBe(before);
    visitor.token = (login.body as { token: string }).token;
    expect(((await visitor.get('/api/catalog/basket')).body as Basket)['22']?.amount).toBe(1.2);
    // Logged out, the browser's session is the new, empty one.
    visitor.token = null;
    expect((await visitor.get('/api/catalog/basket')).body).toEqual({});
    expect(visitor.jar.get('sessionid')).toBe(after);

    // Whoever kept the old key gets a new session, not this visitor's.
    const keeper = new Visitor(server.url);
    keeper.jar.set('sessionid', before);
    const answer = await keeper.get('/api/catalog/basket');
    expect(answer.body).toEqual({});
    expect(sessionCookieOf(answer.headers)).not.toBe(before);
    const state = await stubState();
    expect(Object.keys(state.sessions)).not.toContain(before);
    expect(Object.keys(state.baskets)).not.toContain(`session:${before}`);
  });

  it('a failed login keeps the session key', async () => {
    const visitor = await new Visitor(server.url).start();
    const answer = await visitor.post('/api/auth/token/', { username: 'demo', password: 'no' });
    expect(answer.status).toBe(400);
    expect(sessionCookieOf(answer.headers)).toBeUndefined();
  });

  it('the anonymous orders of the session move to its new key', async () => {
    const visitor = await new Visitor(server.url).start();
    const before = visitor.jar.get('sessionid')!;
    await control(server.url, 'POST', '/state', {
      orders: { owner: `session:${before}`, count: 2 },
    });
    await visitor.login();
    const after = visitor.jar.get('sessionid')!;
    expect(after).not.toBe(before);
    const owners = (await stubState()).orders.map((order) => order.owner);
    expect(owners.filter((owner) => owner === `session:${after}`)).toHaveLength(2);
    expect(owners).not.toContain(`session:${before}`);
    visitor.token = null;
    expect((await visitor.get('/api/catalog/order_history')).body).toHaveLength(2);
  });

  it('accepts a session the controls set up, as the Pact verifier sends it', async () => {
    const PACT = 'pactsessionforcontracttests00001';
    await control(server.url, 'POST', '/state', {
      basket: { owner: `session:${PACT}`, lines: { 7: 1.5 } },
    });
    const verifier = new Visitor(server.url);
    verifier.jar.set('sessionid', PACT);
    const answer = await verifier.get('/api/catalog/basket');
    expect((answer.body as Basket)['7']?.amount).toBe(1.5);
    expect(sessionCookieOf(answer.headers)).toBeUndefined();
  });
});
