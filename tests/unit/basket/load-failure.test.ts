import { FetchError } from 'ofetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../src/api/types';
import type { BasketStore } from '../../../src/features/basket/store';
import { basketApi as api, notices as notice, RASPBERRY } from '../basket-fakes';

// Failures of the basket's own loads (issue 8): the list at start-up and the total. The list's
// failure must show somewhere with `Повторить`, and `В корзину` must not overwrite a line it
// cannot see; the total's failure must be known to the pages that show it.
vi.mock('../../../src/api/basket', () =>
  import('../basket-fakes').then((fakes) => fakes.basketApi),
);
vi.mock('../../../src/ui/notify', () => import('../basket-fakes').then((fakes) => fakes.notices));

const { amountOf } = await import('../../../src/features/basket/store');
const { testBasket } = await import('../test-basket');
let addToBasket: BasketStore['addToBasket'];
let basket: BasketStore['state'];
let claimLoadFailure: BasketStore['claimLoadFailure'];
let loadBasket: BasketStore['loadBasket'];
let refreshTotal: BasketStore['refreshTotal'];

const raspberry: Product = RASPBERRY;
const offline = () => new FetchError('[GET] "/api/catalog/basket": <no response> Failed to fetch');

beforeEach(() => {
  ({ addToBasket, state: basket, claimLoadFailure, loadBasket, refreshTotal } = testBasket());
  api.getTotalPrice.mockResolvedValue(0);
  api.updateBasketAmount.mockImplementation((_id: number, amount: number) =>
    Promise.resolve({ product: raspberry, amount }),
  );
});
afterEach(() => vi.clearAllMocks());

describe('the basket list fails to load', () => {
  it('shows a notice whose `Повторить` loads it again; a success hides it', async () => {
    api.getBasket.mockRejectedValueOnce(offline());
    await loadBasket();
    expect(basket.loadFailure).toBe('unreachable');
    expect(notice.showRetryNotice).toHaveBeenCalledTimes(1);
    const [id, message, retry] = notice.showRetryNotice.mock.calls[0] as [
      string,
      string,
      () => void,
    ];
    expect(message).toBe(
      'Не удалось загрузить корзину: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    );

    api.getBasket.mockResolvedValueOnce({ '7': { product: raspberry, amount: 1.5 } });
    retry();
    await vi.waitFor(() => expect(basket.loaded).toBe(true));
    expect(amountOf(basket.lines, 7)).toBe(1.5);
    expect(notice.hideRetryNotice).toHaveBeenCalledWith(id);
  });

  it('shows no notice while a page shows the failure itself, and shows it when that page goes', async () => {
    const release = claimLoadFailure();
    api.getBasket.mockRejectedValueOnce(offline());
    await loadBasket();
    expect(notice.showRetryNotice).not.toHaveBeenCalled();
    release();
    expect(notice.showRetryNotice).toHaveBeenCalledTimes(1);
  });

  it('a basket that loaded before and fails to refresh gets the notice even on such a page', async () => {
    api.getBasket.mockResolvedValueOnce({ '7': { product: raspberry, amount: 1 } });
    await loadBasket();
    const release = claimLoadFailure();
    api.getBasket.mockRejectedValueOnce(offline());
    await loadBasket();
    expect(notice.showRetryNotice).toHaveBeenCalledTimes(1);
    expect(amountOf(basket.lines, 7)).toBe(1);
    release();
  });

  it('`В корзину` asks for the list first and keeps an amount already there', async () => {
    api.getBasket.mockRejectedValueOnce(offline());
    await loadBasket();
    api.getBasket.mockResolvedValueOnce({ '7': { product: raspberry, amount: 1.5 } });
    await addToBasket(raspberry);
    expect(api.updateBasketAmount).not.toHaveBeenCalled();
    expect(amountOf(basket.lines, 7)).toBe(1.5);
  });

  it('`В корзину` sends nothing while the list still fails, and adds one step once it comes', async () => {
    api.getBasket.mockRejectedValue(offline());
    await loadBasket();
    await addToBasket(raspberry);
    expect(api.updateBasketAmount).not.toHaveBeenCalled();
    expect(notice.showRetryNotice).toHaveBeenCalledTimes(2);

    api.getBasket.mockResolvedValue({});
    await addToBasket(raspberry);
    expect(api.updateBasketAmount).toHaveBeenCalledWith(7, 0.1);
    expect(amountOf(basket.lines, 7)).toBe(0.1);
  });
});

describe('the total fails to load', () => {
  it('keeps the last total, says it failed, and clears that on the next success', async () => {
    api.getTotalPrice.mockResolvedValueOnce(1335);
    await refreshTotal();
    api.getTotalPrice.mockRejectedValueOnce(offline());
    await refreshTotal();
    expect(basket.amount_sum).toBe(1335);
    expect(basket.totalFailed).toBe(true);
    api.getTotalPrice.mockResolvedValueOnce(1424);
    await refreshTotal();
    expect(basket.amount_sum).toBe(1424);
    expect(basket.totalFailed).toBe(false);
  });

  it('an older failure that lands after a newer success does not mark the total failed', async () => {
    let failOld!: (error: unknown) => void;
    api.getTotalPrice.mockReturnValueOnce(new Promise((_resolve, reject) => (failOld = reject)));
    const old = refreshTotal();
    api.getTotalPrice.mockResolvedValueOnce(900);
    await refreshTotal();
    failOld(offline());
    await old;
    expect(basket.totalFailed).toBe(false);
    expect(basket.amount_sum).toBe(900);
  });
});
