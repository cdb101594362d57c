import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { control, expectKeys, startTestServer, type TestServer, Visitor } from './helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());
beforeEach(async () => {
  await control(server.url, 'POST', '/reset');
});

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
