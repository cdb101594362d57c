import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { FetchError } from 'ofetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BasketEntry, Product } from '../../../src/api/types';
import type { BasketStore } from '../../../src/features/basket/store';
import { renderAt } from '../render';
import { basketApi as api, RASPBERRY } from '../basket-fakes';

vi.mock('../../../src/api/basket', () =>
  import('../basket-fakes').then((fakes) => fakes.basketApi),
);
vi.mock('../../../src/ui/notify', () => import('../basket-fakes').then((fakes) => fakes.notices));

const { BasketControl } = await import('../../../src/features/basket');
const { testBasket } = await import('../test-basket');
let basket: BasketStore['state'];
let basketSettled: BasketStore['basketSettled'];

const raspberry: Product = { ...RASPBERRY, rest: 2.5 };
const jam: Product = {
  ...raspberry,
  id: 43,
  name: 'Варенье',
  unit: 'шт',
  unit_step: null,
  rest: 3,
};

beforeEach(() => {
  ({ state: basket, basketSettled } = testBasket());
  api.getTotalPrice.mockResolvedValue(0);
  api.deleteBasketLine.mockResolvedValue(undefined);
  api.updateBasketAmount.mockImplementation((id: number, amount: number) =>
    Promise.resolve({ product: id === jam.id ? jam : raspberry, amount }),
  );
});
afterEach(() => vi.clearAllMocks());

const plus = () => screen.getByRole('button', { name: /^Увеличить количество/ });
const minus = () => screen.queryByRole('button', { name: /^Уменьшить количество/ });
const remove = () => screen.queryByRole('button', { name: /^Убрать из корзины/ });
const field = () => screen.getByRole<HTMLInputElement>('textbox', { name: /^Количество/ });
/**
 * Disabled as a shopper meets it: the line's controls keep the focus while they wait, so they
 * are marked aria-disabled (and the field read-only) rather than given the disabled attribute.
 */
const isDisabled = (element: HTMLElement) =>
  element.getAttribute('aria-disabled') === 'true' &&
  (!(element instanceof HTMLInputElement) || element.readOnly);

describe('at amount 0', () => {
  it('`В корзину` adds one step: 0.1 kg', async () => {
    renderAt(<BasketControl product={raspberry} />);
    fireEvent.click(screen.getByRole('button', { name: 'В корзину' }));
    await waitFor(() => expect(field().value).toBe('0,1'));
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenCalledWith(7, 0.1);
  });

  it('`В корзину` adds one piece', async () => {
    renderAt(<BasketControl product={jam} />);
    fireEvent.click(screen.getByRole('button', { name: 'В корзину' }));
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenCalledWith(43, 1);
  });

  it.each<[string, () => void, Product]>([
    ['while the basket loads', () => (basket.loading = true), raspberry],
    ['while its line is loading', () => (basket.lineLoading['7'] = true), raspberry],
    ['for a sold-out product', () => {}, { ...raspberry, available: false, rest: 0 }],
    [
      'when not even one step fits',
      () => {},
      { ...raspberry, unit: 'г', unit_step: 100, rest: 1200 },
    ],
  ])('is disabled %s', (_name, arrange, product) => {
    arrange();
    renderAt(<BasketControl product={product} />);
    expect(screen.getByRole('button', { name: 'В корзину' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('above 0', () => {
  it('shows delete at one step and minus above it, with the unit in front of the amount', async () => {
    basket.lines = { '43': { product: jam, amount: 1 } };
    renderAt(<BasketControl product={jam} />);
    expect(remove()).not.toBeNull();
    expect(minus()).toBeNull();
    expect(screen.getByText('шт')).toBeTruthy();
    fireEvent.click(plus());
    await waitFor(() => expect(field().value).toBe('2'));
    expect(minus()).not.toBeNull();
    expect(remove()).toBeNull();
    await act(basketSettled);
  });

  it('delete removes the line and `В корзину` comes back', async () => {
    basket.lines = { '43': { product: jam, amount: 1 } };
    renderAt(<BasketControl product={jam} />);
    fireEvent.click(remove()!);
    await act(basketSettled);
    expect(api.deleteBasketLine).toHaveBeenCalledWith(43);
    expect(screen.getByRole('button', { name: 'В корзину' })).toBeTruthy();
  });

  it('plus is disabled at the maximum, min(rest, 10)', async () => {
    basket.lines = { '43': { product: jam, amount: 2 } };
    renderAt(<BasketControl product={jam} />);
    expect(isDisabled(plus())).toBe(false);
    fireEvent.click(plus());
    await waitFor(() => expect(field().value).toBe('3'));
    await act(basketSettled);
    expect(isDisabled(plus())).toBe(true);
    // A press on it does nothing.
    fireEvent.click(plus());
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenCalledTimes(1);
  });

  it('minus goes down one step without float noise', async () => {
    basket.lines = { '7': { product: raspberry, amount: 0.3 } };
    renderAt(<BasketControl product={raspberry} />);
    fireEvent.click(minus()!);
    await waitFor(() => expect(field().value).toBe('0,2'));
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(7, 0.2);
  });

  it('every control is disabled while the basket loads', () => {
    basket.lines = { '43': { product: jam, amount: 2 } };
    basket.loading = true;
    renderAt(<BasketControl product={jam} />);
    expect(isDisabled(plus())).toBe(true);
    expect(isDisabled(minus()!)).toBe(true);
    expect(isDisabled(field())).toBe(true);
  });
});

describe('while its line saves (spec §4)', () => {
  /** The raspberry's first PUT, answered when the test says so; the others at once. */
  function heldPut() {
    let answer!: (entry: BasketEntry) => void;
    api.updateBasketAmount.mockImplementationOnce(
      () => new Promise<BasketEntry>((resolve) => (answer = resolve)),
    );
    return (entry: BasketEntry) => act(async () => answer(entry));
  }

  function renderBoth() {
    basket.lines = {
      '7': { product: raspberry, amount: 0.5 },
      '43': { product: jam, amount: 2 },
    };
    renderAt(
      <>
        <BasketControl product={raspberry} />
        <BasketControl product={jam} />
      </>,
    );
    const controls = (name: string) => ({
      minus: screen.getByRole('button', { name: `Уменьшить количество: ${name}` }),
      field: screen.getByRole<HTMLInputElement>('textbox', {
        name: `Количество, ${name === raspberry.name ? 'кг' : 'шт'}`,
      }),
      plus: screen.getByRole('button', { name: `Увеличить количество: ${name}` }),
    });
    return {
      raspberryControls: () => controls(raspberry.name),
      jamControls: () => controls(jam.name),
    };
  }

  it('minus, the amount and plus wait for the server; the other line stays usable', async () => {
    const answer = heldPut();
    const { raspberryControls, jamControls } = renderBoth();
    fireEvent.click(raspberryControls().plus);

    // The new amount shows at once, and the line's three controls are disabled.
    await waitFor(() => expect(raspberryControls().field.value).toBe('0,6'));
    const saving = raspberryControls();
    expect([saving.minus, saving.field, saving.plus].map(isDisabled)).toEqual([true, true, true]);
    expect(screen.getAllByTestId('basket-control')[0]!.getAttribute('aria-busy')).toBe('true');
    const other = jamControls();
    expect([other.minus, other.field, other.plus].map(isDisabled)).toEqual([false, false, false]);

    // Taps meanwhile are not taken: plus, minus, a typed amount.
    fireEvent.click(saving.plus);
    fireEvent.click(saving.minus);
    fireEvent.focus(saving.field);
    fireEvent.keyDown(saving.field, { key: 'ArrowUp' });
    fireEvent.keyDown(saving.field, { key: 'Enter' });
    expect(api.updateBasketAmount).toHaveBeenCalledTimes(1);
    // The other line saves on its own.
    fireEvent.click(other.plus);
    await waitFor(() => expect(api.updateBasketAmount).toHaveBeenCalledWith(43, 3));

    // The server's answer is what shows, and the controls are usable again.
    await answer({ product: raspberry, amount: 0.6 });
    await waitFor(() => expect(isDisabled(raspberryControls().plus)).toBe(false));
    const saved = raspberryControls();
    expect([saved.minus, saved.field, saved.plus].map(isDisabled)).toEqual([false, false, false]);
    expect(saved.field.value).toBe('0,6');
    fireEvent.click(saved.plus);
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(7, 0.7);
  });

  it('a failed save returns the line to the server amount and makes it usable again', async () => {
    api.updateBasketAmount.mockRejectedValue(new TypeError('fetch failed'));
    const { raspberryControls } = renderBoth();
    fireEvent.click(raspberryControls().plus);
    await act(basketSettled);
    await waitFor(() => expect(raspberryControls().field.value).toBe('0,5'));
    expect(isDisabled(raspberryControls().plus)).toBe(false);
  });

  it('keeps the keyboard focus on plus while the line saves', async () => {
    const answer = heldPut();
    renderBoth();
    const plusButton = screen.getByRole('button', {
      name: `Увеличить количество: ${raspberry.name}`,
    });
    plusButton.focus();
    fireEvent.click(plusButton);
    await waitFor(() => expect(isDisabled(plusButton)).toBe(true));
    expect(plusButton.hasAttribute('disabled')).toBe(false);
    expect(document.activeElement).toBe(plusButton);
    await answer({ product: raspberry, amount: 0.6 });
  });
});

describe('after the server refused a change', () => {
  function refusal(): FetchError {
    const error = new FetchError('400');
    const body = { amount: ['Убедитесь, что значение меньше или равно 1.'] };
    Object.assign(error, { statusCode: 400, status: 400, data: body });
    return error;
  }

  it('plus stops at the stock the server has now, though the card still shows the old one', async () => {
    basket.loaded = true;
    basket.lines = { '43': { product: jam, amount: 1 } };
    api.updateBasketAmount.mockRejectedValue(refusal());
    // The stock fell from 3 to 1 while the card was open.
    api.getBasket.mockResolvedValue({ '43': { product: { ...jam, rest: 1 }, amount: 1 } });
    renderAt(<BasketControl product={jam} />);
    expect(isDisabled(plus())).toBe(false);
    fireEvent.click(plus());
    await act(basketSettled);
    await waitFor(() => expect(isDisabled(plus())).toBe(true));
    expect(field().value).toBe('1');
    expect(api.updateBasketAmount).toHaveBeenCalledTimes(1);
  });

  it('a product gone out of sale: its controls are disabled', async () => {
    basket.loaded = true;
    basket.lines = { '43': { product: jam, amount: 2 } };
    const notFound = new FetchError('404');
    Object.assign(notFound, { statusCode: 404, status: 404, data: {} });
    api.updateBasketAmount.mockRejectedValue(notFound);
    api.getBasket.mockResolvedValue({
      '43': { product: { ...jam, available: false, rest: 0 }, amount: 2 },
    });
    renderAt(<BasketControl product={jam} />);
    fireEvent.click(plus());
    await act(basketSettled);
    await waitFor(() => expect(isDisabled(plus())).toBe(true));
    expect(isDisabled(minus()!)).toBe(true);
  });
});

describe('typing an amount', () => {
  function typeInto(text: string) {
    fireEvent.focus(field());
    fireEvent.change(field(), { target: { value: text } });
  }

  it.each<[string, string, string, number]>([
    ['a comma', '1,5', '1,5', 1.5],
    ['a dot', '1.5', '1.5', 1.5],
    ['letters, dropped', '1a,5', '1,5', 1.5],
    ['a minus: below 0 is 0, which removes the line', '-1,5', '0', 0],
    ['an exponent, which ends the number', '2e1', '2', 2],
    ['a second separator, which is not taken', '1,2,', '1,2', 1.2],
    ['too many decimals, cut', '1,55', '1,5', 1.5],
    ['more than the maximum (2.5 in stock)', '7', '7', 2.5],
    ['0, which removes the line', '0', '0', 0],
  ])('%s', async (_name, typed, shown, sent) => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    renderAt(<BasketControl product={raspberry} />);
    typeInto(typed);
    expect(field().value).toBe(shown);
    fireEvent.keyDown(field(), { key: 'Enter' });
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(7, sent);
  });

  it('pieces take whole numbers only: no separator, and pasted 2,7 is 2, not 27', async () => {
    basket.lines = { '43': { product: jam, amount: 1 } };
    renderAt(<BasketControl product={jam} />);
    typeInto('2,');
    expect(field().value).toBe('2');
    typeInto('2,7');
    expect(field().value).toBe('2');
    fireEvent.blur(field());
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(43, 2);
    expect(field().value).toBe('2');
  });

  it('a minus in front removes the line: `В корзину` is back', async () => {
    basket.lines = { '43': { product: jam, amount: 2 } };
    renderAt(<BasketControl product={jam} />);
    typeInto('-2');
    expect(field().value).toBe('0');
    fireEvent.keyDown(field(), { key: 'Enter' });
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(43, 0);
    expect(screen.getByRole('button', { name: 'В корзину' })).toBeTruthy();
  });

  it('an empty field keeps the control while typing and changes nothing when left', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    renderAt(<BasketControl product={raspberry} />);
    typeInto('');
    expect(field().value).toBe('');
    fireEvent.blur(field());
    await waitFor(() => expect(field().value).toBe('1'));
    expect(api.updateBasketAmount).not.toHaveBeenCalled();
  });

  it('Escape drops what was typed', () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    renderAt(<BasketControl product={raspberry} />);
    typeInto('2');
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect(field().value).toBe('1');
    fireEvent.blur(field());
    expect(api.updateBasketAmount).not.toHaveBeenCalled();
  });

  it('arrow keys step like plus and minus', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    renderAt(<BasketControl product={raspberry} />);
    fireEvent.focus(field());
    fireEvent.keyDown(field(), { key: 'ArrowUp' });
    fireEvent.keyDown(field(), { key: 'ArrowUp' });
    expect(field().value).toBe('1,2');
    fireEvent.keyDown(field(), { key: 'Enter' });
    await act(basketSettled);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(7, 1.2);
  });
});
