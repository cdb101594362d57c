import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getBasket, updateBasketAmount } from '../../../src/api/basket';
import { configureApi, csrfTokenFromPage, loginRedirectFor } from '../../../src/api/http';
import { getToken, setToken } from '../../../src/api/token';

const calls: Request[] = [];

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(new Request(new URL(String(input), 'http://shop.test'), init));
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

beforeEach(() => {
  calls.length = 0;
  document.head.innerHTML = '';
  configureApi({ baseURL: '/api', csrfToken: csrfTokenFromPage, onUnauthorized: () => {} });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setToken(null);
});

describe('the HTTP client', () => {
  it('calls /api paths and sends no Authorization header without a token', async () => {
    answer(200, {});
    await getBasket();
    expect(new URL(calls[0]!.url).pathname).toBe('/api/catalog/basket');
    expect(calls[0]!.headers.get('Authorization')).toBeNull();
  });

  it('sends `Token {token}` when a token is stored under jwt', async () => {
    localStorage.setItem('jwt', 'abc123');
    answer(200, {});
    await getBasket();
    expect(calls[0]!.headers.get('Authorization')).toBe('Token abc123');
  });

  it('sends the stored token when a cleared jwt cookie still reads as empty', async () => {
    document.cookie = 'jwt=; path=/';
    localStorage.setItem('jwt', 'abc123');
    answer(200, {});
    await getBasket();
    expect(calls[0]!.headers.get('Authorization')).toBe('Token abc123');
    document.cookie = 'jwt=; max-age=0; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('sends X-CSRFToken on PUT from the csrftoken cookie', async () => {
    document.cookie = 'csrftoken=cookie-token; path=/';
    answer(200, { product: {}, amount: 1 });
    await updateBasketAmount(5, 1);
    expect(calls[0]!.method).toBe('PUT');
    expect(calls[0]!.headers.get('X-CSRFToken')).toBe('cookie-token');
    expect(await calls[0]!.json()).toEqual({ amount: 1 });
  });

  it('reads the cookie at each call: the token Django rotates at login is the one sent', async () => {
    document.cookie = 'csrftoken=before-login; path=/';
    answer(200, { product: {}, amount: 1 });
    await updateBasketAmount(5, 1);
    document.cookie = 'csrftoken=after-login; path=/';
    await updateBasketAmount(5, 2);
    expect(calls.map((call) => call.headers.get('X-CSRFToken'))).toEqual([
      'before-login',
      'after-login',
    ]);
  });

  it('does not send the anti-forgery header on GET', async () => {
    document.cookie = 'csrftoken=cookie-token; path=/';
    answer(200, {});
    await getBasket();
    expect(calls[0]!.headers.get('X-CSRFToken')).toBeNull();
  });

  it('on 401 clears the token and calls the logout handler', async () => {
    setToken('revoked');
    const onUnauthorized = vi.fn();
    configureApi({ onUnauthorized });
    answer(401, { detail: 'Недопустимый токен.' });
    await expect(getBasket()).rejects.toThrow();
    expect(getToken()).toBeNull();
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not log out on other errors', async () => {
    setToken('good');
    const onUnauthorized = vi.fn();
    configureApi({ onUnauthorized });
    answer(500, {});
    await expect(getBasket()).rejects.toThrow();
    expect(getToken()).toBe('good');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('loginRedirectFor', () => {
  it('carries the current path in next_page', () => {
    expect(loginRedirectFor('/order_status')).toBe('/login/?next_page=/order_status');
    expect(loginRedirectFor('/section/3')).toBe('/login/?next_page=/section/3');
    const search = loginRedirectFor('/search?q=мал&x=1#top');
    expect(search).toBe('/login/?next_page=/search%3Fq%3D%D0%BC%D0%B0%D0%BB%26x%3D1%23top');
    expect(new URLSearchParams(search!.split('?')[1]).get('next_page')).toBe(
      '/search?q=мал&x=1#top',
    );
  });

  it('does nothing when already on /login/', () => {
    expect(loginRedirectFor('/login/')).toBeNull();
    expect(loginRedirectFor('/login/?next_page=%2F')).toBeNull();
  });
});

describe('a late 401', () => {
  it('does not log out a session whose token changed since the request was sent', async () => {
    setToken('old');
    const onUnauthorized = vi.fn();
    configureApi({ onUnauthorized });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        setToken('new'); // the shopper logged in again while this call was under way
        return new Response('{"detail":"Недопустимый токен."}', {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    await expect(getBasket()).rejects.toThrow();
    expect(getToken()).toBe('new');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('retries', () => {
  it('sends a failed GET once, so the error shows at once', async () => {
    answer(500, {});
    await expect(getBasket()).rejects.toThrow();
    expect(calls).toHaveLength(1);
  });
});
