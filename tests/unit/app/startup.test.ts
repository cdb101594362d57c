import { proxy } from 'valtio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Basket } from '../../../src/api/types';
import type { BasketStore } from '../../../src/features/basket/store';

const loadBasket = vi.fn(async () => {});
const refreshBasket = vi.fn(async () => {});
// The basket the server rendered into the page (src/main.tsx seeds the store with it).
const basket = proxy({ loaded: true, lines: {} as Basket });
const lineCount = (lines: Basket) => Object.values(lines).filter((line) => line.amount > 0).length;
vi.mock('../../../src/features/basket/store', () => ({ lineCount }));
const store = { state: basket, loadBasket, refreshBasket } as unknown as BasketStore;

const { startApp } = await import('../../../src/app/startup');
const { session } = await import('../../../src/features/session');

afterEach(() => {
  loadBasket.mockClear();
  refreshBasket.mockClear();
});

describe('start-up', () => {
  it('fetches the server-rendered basket again behind it, and loads it anew at login and logout', async () => {
    startApp(store);
    // Quietly: the controls the server drew stay usable while it comes.
    expect(refreshBasket).toHaveBeenCalledTimes(1);
    expect(loadBasket).not.toHaveBeenCalled();
    session.token = 'fresh-login';
    await vi.waitFor(() => expect(loadBasket).toHaveBeenCalledTimes(1));
    session.token = null;
    await vi.waitFor(() => expect(loadBasket).toHaveBeenCalledTimes(2));
  });

  it('keeps the basket cookie true to the basket: set while it has lines, gone when it has none', async () => {
    startApp(store);
    basket.lines = { '7': { product: { id: 7 }, amount: 1 } } as unknown as Basket;
    await vi.waitFor(() => expect(document.cookie).toMatch(/(^|; )basket=1/));
    basket.lines = {};
    await vi.waitFor(() => expect(document.cookie).not.toMatch(/(^|; )basket=/));
  });
});
