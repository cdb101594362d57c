// The answers index.html asks for before the app's code arrives: the HTTP client takes each one
// once, only for the very same call, and goes to the network for anything else.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getBasket, updateBasketAmount } from '../../../src/api/basket';
import { searchProducts } from '../../../src/api/catalog';
import type { FirstCall } from '../../../src/api/first-calls';
import { configureApi, csrfTokenFromPage, errorStatus } from '../../../src/api/http';
import { setToken } from '../../../src/api/token';

const network = vi.fn(async () => json({ from: 'network' }));

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** What index.html's script leaves behind for `url`, sent with `token`. */
function early(url: string, response: Promise<Response>, token: string | null = null): FirstCall {
  const call = { url, token, at: performance.now(), response };
  window.__firstCalls = [...(window.__firstCalls ?? []), call];
  return call;
}

beforeEach(() => {
  network.mockClear();
  vi.stubGlobal('fetch', network);
  configureApi({ baseURL: '/api', csrfToken: csrfTokenFromPage, onUnauthorized: () => {} });
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__firstCalls;
  setToken(null);
});

describe('the first screen calls index.html started', () => {
  it('answer the same call without a second request, once', async () => {
    early('/api/catalog/basket', Promise.resolve(json({ from: 'index.html' })));
    expect(await getBasket()).toEqual({ from: 'index.html' });
    expect(network).not.toHaveBeenCalled();
    expect(await getBasket()).toEqual({ from: 'network' });
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('match a query however it is encoded', async () => {
    early(
      '/api/catalog/product_search?q=%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0',
      Promise.resolve(json(['Малина'])),
    );
    expect(await searchProducts('малина')).toEqual(['Малина']);
    expect(network).not.toHaveBeenCalled();
  });

  it('are not used for another token: the shopper logged in or out since', async () => {
    early('/api/catalog/basket', Promise.resolve(json({ from: 'index.html' })), 'old');
    setToken('new');
    expect(await getBasket()).toEqual({ from: 'network' });
  });

  it('are dropped by any change, which may change their answers', async () => {
    early('/api/catalog/basket', Promise.resolve(json({ from: 'index.html' })));
    await updateBasketAmount(7, 1);
    expect(await getBasket()).toEqual({ from: 'network' });
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('are not used once 30 s old', async () => {
    const call = early('/api/catalog/basket', Promise.resolve(json({ from: 'index.html' })));
    call.at = performance.now() - 30_001;
    expect(await getBasket()).toEqual({ from: 'network' });
  });

  it('fail as the call itself would: an error status, or a network error', async () => {
    early('/api/catalog/basket', Promise.resolve(json({ detail: 'Ошибка' }, 500)));
    const failed = await getBasket().catch((error: unknown) => error);
    expect(errorStatus(failed)).toBe(500);

    const offline = Promise.reject(new TypeError('Failed to fetch'));
    offline.catch(() => {});
    early('/api/catalog/basket', offline);
    const lost = await getBasket().catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(Error);
    expect(errorStatus(lost)).toBeUndefined();
    expect(network).not.toHaveBeenCalled();
  });

  it('give up with the caller: an aborted search is aborted', async () => {
    // An answer that never comes: only the abort can end the call.
    early('/api/catalog/product_search?q=a', new Promise<Response>(() => {}));
    const controller = new AbortController();
    const search = searchProducts('a', controller.signal).catch((error: unknown) => error);
    await vi.waitFor(() => expect(window.__firstCalls?.[0]?.taken).toBe(true));
    controller.abort();
    expect(await search).toBeInstanceOf(Error);
  });
});
