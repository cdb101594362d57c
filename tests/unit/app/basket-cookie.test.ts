import { proxy } from 'valtio';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COOKIES } from '../../../src/lib/cookie-table';
import { writeCookie } from '../../../src/lib/cookies';
import { basketApi as api, RASPBERRY } from '../basket-fakes';
import type { BasketStore } from '../../../src/features/basket/store';

// The basket cookie as nginx reads it (a visitor with it never gets the shared copy of a page),
// after each change the shopper makes through the real store: a line added, its amount changed,
// the line removed. The store changes `basket.lines` in place for these.
vi.mock('../../../src/api/basket', () =>
  import('../basket-fakes').then((fakes) => fakes.basketApi),
);
vi.mock('../../../src/ui/notify', () => import('../basket-fakes').then((fakes) => fakes.notices));
vi.mock('../../../src/features/session', () => ({
  session: proxy({ token: null }),
  loadUser: async () => {},
  handleUnauthorized: () => {},
}));

const { startApp } = await import('../../../src/app/startup');
const { testBasket } = await import('../test-basket');
let basket: BasketStore['state'];
let removeLine: BasketStore['removeLine'];
let setAmount: BasketStore['setAmount'];

const basketCookie = () => /(?:^|; )basket=1(?:;|$)/.test(document.cookie);

beforeEach(() => {
  ({ state: basket, removeLine, setAmount } = testBasket());
  api.getBasket.mockResolvedValue({});
  api.getTotalPrice.mockResolvedValue(0);
});

describe('the basket cookie', () => {
  it('is set when a line is added, stays while its amount changes, and goes with the line', async () => {
    // An empty basket as the server rendered it, before the app starts.
    testBasket().seed({ lines: {}, amount_sum: 0 });
    startApp(testBasket());
    await vi.waitFor(() => expect(api.getBasket).toHaveBeenCalled());
    expect(basketCookie()).toBe(false);

    api.updateBasketAmount.mockResolvedValueOnce({ product: RASPBERRY, amount: 0.1 });
    await setAmount(RASPBERRY, 0.1);
    expect(basket.lines['7']?.amount).toBe(0.1);
    await vi.waitFor(() => expect(basketCookie()).toBe(true));

    api.updateBasketAmount.mockResolvedValueOnce({ product: RASPBERRY, amount: 0.3 });
    await setAmount(RASPBERRY, 0.3);
    await vi.waitFor(() => expect(basket.lines['7']?.amount).toBe(0.3));
    expect(basketCookie()).toBe(true);

    api.deleteBasketLine.mockResolvedValueOnce(undefined);
    await removeLine(RASPBERRY);
    expect(basket.lines['7']).toBeUndefined();
    await vi.waitFor(() => expect(basketCookie()).toBe(false));

    // Added again after it went: the cookie comes back.
    api.updateBasketAmount.mockResolvedValueOnce({ product: RASPBERRY, amount: 0.2 });
    await setAmount(RASPBERRY, 0.2);
    await vi.waitFor(() => expect(basketCookie()).toBe(true));
  });

  it('stays while the basket is unknown: the app could not load it either', async () => {
    writeCookie(COOKIES.basket, '1');
    // The server could not get the basket in time, and the app's own load fails too.
    testBasket().seed('unreachable');
    api.getBasket.mockRejectedValue(new Error('нет связи'));
    startApp(testBasket());
    await vi.waitFor(() => expect(api.getBasket).toHaveBeenCalled());
    await vi.waitFor(() => expect(basket.loading).toBe(false));
    expect(basket.loaded).toBe(false);
    expect(basketCookie()).toBe(true);
  });
});
