import { afterEach, describe, expect, it, vi } from 'vitest';

const loadBasket = vi.fn(async () => {});
const refreshBasket = vi.fn(async () => {});
// The basket the server rendered into the page (src/main.tsx seeds the store with it).
const basket = { loaded: true };
vi.mock('../../../src/features/basket/store', () => ({ basket, loadBasket, refreshBasket }));

const { startApp } = await import('../../../src/app/startup');
const { session } = await import('../../../src/features/session');

afterEach(() => {
  loadBasket.mockClear();
  refreshBasket.mockClear();
});

describe('start-up', () => {
  it('fetches the server-rendered basket again behind it, and loads it anew at login and logout', async () => {
    startApp();
    // Quietly: the controls the server drew stay usable while it comes.
    expect(refreshBasket).toHaveBeenCalledTimes(1);
    expect(loadBasket).not.toHaveBeenCalled();
    session.token = 'fresh-login';
    await vi.waitFor(() => expect(loadBasket).toHaveBeenCalledTimes(1));
    session.token = null;
    await vi.waitFor(() => expect(loadBasket).toHaveBeenCalledTimes(2));
  });
});
