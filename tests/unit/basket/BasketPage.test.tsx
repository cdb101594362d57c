import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BasketEntry, Product } from '../../../src/api/types';
import type { BasketStore } from '../../../src/features/basket/store';
import { renderAt } from '../render';
import { basketApi as api, RASPBERRY } from '../basket-fakes';

vi.mock('../../../src/api/basket', () =>
  import('../basket-fakes').then((fakes) => fakes.basketApi),
);
vi.mock('../../../src/ui/notify', () => import('../basket-fakes').then((fakes) => fakes.notices));

const { default: BasketPage } = await import('../../../src/features/basket/BasketPage');
const { testBasket } = await import('../test-basket');
let basket: BasketStore['state'];
let basketSettled: BasketStore['basketSettled'];

const raspberry: Product = { ...RASPBERRY, image: '/media/catalog/products/7.svg' };
const jam: Product = {
  ...raspberry,
  id: 43,
  name: 'Варенье клубничное',
  unit: 'шт',
  unit_step: null,
  price: 390,
  rest: 20,
  image: null,
};
const currant: Product = {
  ...raspberry,
  id: 13,
  name: 'Смородина белая',
  price: 480,
  rest: 0,
  available: false,
};

function fill() {
  basket.loaded = true;
  basket.lines = {
    '7': { product: raspberry, amount: 0.3 },
    '13': { product: currant, amount: 1 },
    '43': { product: jam, amount: 2 },
  };
  basket.amount_sum = 1047;
}

beforeEach(() => {
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
  ({ state: basket, basketSettled } = testBasket());
  api.getTotalPrice.mockResolvedValue(0);
  api.deleteBasketLine.mockResolvedValue(undefined);
});
afterEach(() => vi.clearAllMocks());

const lineOf = (name: string) => screen.getByRole('article', { name });
/** The line's controls keep the focus while they wait: aria-disabled, not the attribute. */
const isDisabled = (element: HTMLElement) => element.getAttribute('aria-disabled') === 'true';
/** Intl puts no-break spaces in money; the tests read them as plain spaces. */
const text = (element: HTMLElement) => element.textContent?.replace(/\s/g, ' ');

describe('the basket page', () => {
  it('has the heading Корзина', () => {
    fill();
    renderAt(<BasketPage />, '/order');
    expect(screen.getByRole('heading', { level: 1, name: 'Корзина' })).toBeTruthy();
  });

  it('shows each line: image linking to the product, name, unit price, stock and line total', () => {
    fill();
    renderAt(<BasketPage />, '/order');
    const line = within(lineOf('Малина'));
    const image = line.getByRole('img', { name: 'Малина', hidden: true });
    expect(image.closest('a')?.getAttribute('href')).toBe('/product/7');
    expect(image.getAttribute('width')).toBe('96');
    expect(line.getByRole('link', { name: 'Малина' }).getAttribute('href')).toBe('/product/7');
    expect(line.getByText('890 ₽ / кг')).toBeTruthy();
    expect(line.getByText('в наличии 15 кг')).toBeTruthy();
    // 0.3 × 890 = 267, not 266.99999999999997
    expect(text(line.getByTestId('line-sum'))).toBe('267 ₽');
    expect(line.getByRole<HTMLInputElement>('textbox', { name: 'Количество, кг' }).value).toBe(
      '0,3',
    );
    expect(line.getByRole('button', { name: 'Удалить из корзины: Малина' })).toBeTruthy();
    expect(text(within(lineOf('Варенье клубничное')).getByTestId('line-sum'))).toBe('780 ₽');
  });

  it('greys an unavailable line and shows `Недоступно` instead of a sum', () => {
    fill();
    renderAt(<BasketPage />, '/order');
    const line = lineOf('Смородина белая');
    expect(line.className).toMatch(/unavailable/);
    expect(within(line).getByTestId('line-sum').textContent).toBe('Недоступно');
    expect(within(line).getByText('закончилось')).toBeTruthy();
    expect(isDisabled(within(line).getByRole('button', { name: /Удалить из корзины/ }))).toBe(
      false,
    );
  });

  it('while a line saves, its controls and its remove button wait; the other lines do not', async () => {
    fill();
    let answer!: (entry: BasketEntry) => void;
    api.updateBasketAmount.mockImplementationOnce(
      () => new Promise<BasketEntry>((resolve) => (answer = resolve)),
    );
    renderAt(<BasketPage />, '/order');
    const controlsOf = (name: string) =>
      within(lineOf(name))
        .getAllByRole('button')
        .concat(within(lineOf(name)).getByRole('textbox'));
    fireEvent.click(within(lineOf('Малина')).getByRole('button', { name: /^Увеличить/ }));
    await waitFor(() =>
      expect(controlsOf('Малина').map(isDisabled)).toEqual([true, true, true, true]),
    );
    expect(controlsOf('Варенье клубничное').map(isDisabled)).toEqual([false, false, false, false]);
    // 0.4 kg shows (and counts in the line's sum) while it saves.
    expect(text(within(lineOf('Малина')).getByTestId('line-sum'))).toBe('356 ₽');

    await act(async () => answer({ product: raspberry, amount: 0.4 }));
    await waitFor(() =>
      expect(controlsOf('Малина').map(isDisabled)).toEqual([false, false, false, false]),
    );
  });

  it('the bottom bar shows the total and `Продолжить` to /commit only while the total is non-zero', async () => {
    fill();
    renderAt(<BasketPage />, '/order');
    expect(text(screen.getByTestId('basket-total'))).toBe('1 047 ₽');
    expect(screen.getByRole('link', { name: 'Продолжить' }).getAttribute('href')).toBe('/commit');
    act(() => {
      basket.amount_sum = 0;
    });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Продолжить' })).toBeNull());
  });

  it('the remove button DELETEs the line', async () => {
    fill();
    api.getTotalPrice.mockResolvedValue(780);
    renderAt(<BasketPage />, '/order');
    fireEvent.click(screen.getByRole('button', { name: 'Удалить из корзины: Малина' }));
    await act(basketSettled);
    expect(api.deleteBasketLine).toHaveBeenCalledWith(7);
    expect(screen.queryByRole('article', { name: 'Малина' })).toBeNull();
    expect(text(screen.getByTestId('basket-total'))).toBe('780 ₽');
  });

  it('when empty: `В корзине пока пусто` with a button to the catalogue', () => {
    basket.loaded = true;
    renderAt(<BasketPage />, '/order');
    expect(screen.getByText('В корзине пока пусто')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'В каталог товаров' }).getAttribute('href')).toBe(
      '/catalog',
    );
    expect(screen.queryByRole('link', { name: 'Продолжить' })).toBeNull();
  });

  it('a failed first load offers `Повторить`, which loads again', async () => {
    basket.loadFailure = 'unreachable';
    api.getBasket.mockResolvedValue({ '7': { product: raspberry, amount: 1 } });
    renderAt(<BasketPage />, '/order');
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('article', { name: 'Малина' })).toBeTruthy();
  });
});
