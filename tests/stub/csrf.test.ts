import { describe, expect, it } from 'vitest';
import { control, startTestServer, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile();

const CSRF_FAILED = { detail: 'CSRF Failed: CSRF token missing or incorrect.' };

describe('anti-forgery', () => {
  it('PUT without X-CSRFToken answers 403', async () => {
    const visitor = await new Visitor(server.url).start();
    const { status, body } = await visitor.put(
      '/api/catalog/basket/7',
      { amount: 1 },
      { csrf: false },
    );
    expect(status).toBe(403);
    expect(body).toEqual(CSRF_FAILED);
    expect((await visitor.get('/api/catalog/basket')).body).toEqual({});
  });

  it('PUT with a wrong X-CSRFToken answers 403', async () => {
    const visitor = await new Visitor(server.url).start();
    const wrong = 'x'.repeat(32);
    const { status, body } = await visitor.put(
      '/api/catalog/basket/7',
      { amount: 1 },
      { csrf: wrong },
    );
    expect(status).toBe(403);
    expect(body).toEqual(CSRF_FAILED);
  });

  it('the header without the cookie answers 403 and the answer sets the cookie', async () => {
    const visitor = new Visitor(server.url);
    const { status, headers } = await visitor.put(
      '/api/catalog/basket/7',
      { amount: 1 },
      { csrf: 'a'.repeat(32) },
    );
    expect(status).toBe(403);
    expect(headers.getSetCookie().some((c) => c.startsWith('csrftoken='))).toBe(true);
    // With the cookie it was given, the retry passes.
    expect((await visitor.put('/api/catalog/basket/7', { amount: 1 })).status).toBe(200);
  });

  it('a malformed (stale) csrftoken is refused even when the header repeats it, and a GET replaces it, as Django does', async () => {
    const stale = {
      'content-type': 'application/json',
      cookie: 'sessionid=bogus; csrftoken=bogus',
    };
    const login = await fetch(new URL('/api/auth/token/', server.url), {
      method: 'POST',
      headers: { ...stale, 'x-csrftoken': 'bogus' },
      body: JSON.stringify({ username: 'demo', password: 'berries2026' }),
    });
    expect(login.status).toBe(403);
    expect(await login.json()).toEqual(CSRF_FAILED);
    const basket = await fetch(new URL('/api/catalog/basket', server.url), { headers: stale });
    const fresh = basket.headers
      .getSetCookie()
      .map((line) => /^csrftoken=([^;]*)/.exec(line)?.[1])
      .find(Boolean);
    expect(fresh).toMatch(/^[a-z0-9]{32}$/);
  });

  it('DELETE and POST are checked too, GET is not', async () => {
    const visitor = await new Visitor(server.url).start();
    expect((await visitor.delete('/api/catalog/basket/7', { csrf: false })).status).toBe(403);
    expect((await visitor.post('/api/catalog/order_commit', {}, { csrf: false })).status).toBe(403);
    expect((await visitor.get('/api/catalog/basket', { csrf: false })).status).toBe(200);
  });

  it('a valid token does not exempt a request from the check', async () => {
    const visitor = await new Visitor(server.url).start();
    await visitor.login();
    expect(
      (await visitor.put('/api/catalog/basket/7', { amount: 1 }, { csrf: false })).status,
    ).toBe(403);
    expect((await visitor.put('/api/catalog/basket/7', { amount: 1 })).status).toBe(200);
  });

  it('the controls can switch the check off for a verifier, and on again', async () => {
    const visitor = await new Visitor(server.url).start();
    const off = await control(server.url, 'POST', '/settings', { csrf: false });
    expect(off.body).toMatchObject({ csrf: false });
    try {
      expect(
        (await visitor.put('/api/catalog/basket/7', { amount: 1 }, { csrf: false })).status,
      ).toBe(200);
    } finally {
      await control(server.url, 'POST', '/settings', { csrf: true });
    }
    expect(
      (await visitor.put('/api/catalog/basket/7', { amount: 1 }, { csrf: false })).status,
    ).toBe(403);
  });

  it('/__control needs no CSRF and is 404 without controls', async () => {
    const bare = await startTestServer({ controls: false });
    try {
      const response = await fetch(new URL('/__control/reset', bare.url), { method: 'POST' });
      expect(response.status).toBe(404);
      const state = await fetch(new URL('/__control/state', bare.url));
      expect(state.status).toBe(404);
    } finally {
      await bare.dispose();
    }
    expect((await control(server.url, 'GET', '/settings')).status).toBe(200);
  });
});
