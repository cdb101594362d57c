import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FetchError } from 'ofetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../src/api/types';
import type { BasketStore } from '../../../src/features/basket/store';
import { renderAt } from '../render';
import { basketApi, RASPBERRY } from '../basket-fakes';
import { checkoutUnavailable } from '../../../src/features/checkout/CommitPage';
import { ORDER_LATE } from '../../../src/server-entry/commit-form';
import { ORDER_IN_PROGRESS } from '../../../src/features/checkout/order-attempt';
import { PageData, PageDataContext } from '../../../src/ui/page-data';

vi.mock('../../../src/api/basket', () =>
  import('../basket-fakes').then((fakes) => fakes.basketApi),
);
const ordersApi = vi.hoisted(() => ({ commitOrder: vi.fn(), getOrderHistory: vi.fn() }));
vi.mock('../../../src/api/orders', () => ordersApi);

const { default: CommitPage } = await import('../../../src/features/checkout/CommitPage');
const { lineCount } = await import('../../../src/features/basket/store');
const { testBasket } = await import('../test-basket');
let basket: BasketStore['state'];
let setAmount: BasketStore['setAmount'];

const raspberry: Product = RASPBERRY;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function fillBasket() {
  basket.loaded = true;
  basket.lines = { '7': { product: raspberry, amount: 1.5 } };
  basket.amount_sum = 1335;
}

function failure(status: number, body: unknown): FetchError {
  const error = new FetchError(`${status}`);
  Object.assign(error, { statusCode: status, status, data: body });
  return error;
}

vi.mock('../../../src/ui/notify', () => import('../basket-fakes').then((fakes) => fakes.notices));

beforeEach(() => {
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
  ({ state: basket, setAmount } = testBasket());
  basketApi.getBasket.mockResolvedValue({});
  basketApi.getTotalPrice.mockResolvedValue(0);
  ordersApi.commitOrder.mockResolvedValue({ id: 8 });
});
afterEach(() => vi.clearAllMocks());

const phone = () => screen.getByRole<HTMLInputElement>('textbox', { name: /Телефон/ });
const comment = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: /Комментарий/ });
const courier = () => screen.getByRole<HTMLInputElement>('radio', { name: 'Доставка курьером' });
const pickup = () => screen.getByRole<HTMLInputElement>('radio', { name: 'Самовывоз' });
const policy = () =>
  screen.getByRole<HTMLInputElement>('checkbox', { name: /политикой конфиденциальности/ });
const newsletter = () => screen.getByRole<HTMLInputElement>('checkbox', { name: /новости/ });
const submit = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Подтвердить' });

function renderPage() {
  fillBasket();
  const user = userEvent.setup({ delay: null });
  const view = renderAt(<CommitPage />, '/commit');
  return { user, ...view };
}

describe('the commit page', () => {
  it('has the heading', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Подтвердить заказ' })).toBeTruthy();
  });

  it('with an empty basket: `В вашей корзине пусто` and `В каталог товаров`', () => {
    basket.loaded = true;
    renderAt(<CommitPage />, '/commit');
    expect(screen.getByText('В вашей корзине пусто')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'В каталог товаров' }).getAttribute('href')).toBe(
      '/catalog',
    );
    expect(screen.queryByRole('button', { name: 'Подтвердить' })).toBeNull();
  });

  it('with only sold-out lines: `В корзине нет доступных товаров` instead of a form that would be refused', () => {
    basket.loaded = true;
    basket.lines = { '7': { product: { ...raspberry, available: false }, amount: 1.5 } };
    renderAt(<CommitPage />, '/commit');
    expect(screen.getByText('В корзине нет доступных товаров')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'В каталог товаров' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Подтвердить' })).toBeNull();
  });

  it('a basket that never loaded: checkout says it cannot order now, and `Повторить` loads it again', async () => {
    basket.loadFailure = 'unreachable';
    basketApi.getBasket.mockResolvedValue({ '7': { product: raspberry, amount: 1.5 } });
    basketApi.getTotalPrice.mockResolvedValue(1335);
    renderAt(<CommitPage />, '/commit');
    expect(screen.getByRole('alert').textContent).toMatch(
      'Оформить заказ сейчас нельзя, корзина не загрузилась: сервер магазина не отвечает. Попробуйте ещё раз чуть позже.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('button', { name: 'Подтвердить' })).toBeTruthy();
    expect(basketApi.getBasket).toHaveBeenCalledTimes(1);
  });

  it('a form posted while the backend was out comes back as typed, though the basket did not load', () => {
    basket.loadFailure = 'unreachable';
    const posted = new PageData(
      '/commit',
      {},
      {},
      {
        values: {
          phone: '+7(912)345-67-89',
          comment: 'к подъезду',
          delivery: '2',
          policy_accept: 'on',
        },
        notice: ORDER_LATE,
      },
    );
    renderAt(
      <PageDataContext value={posted}>
        <CommitPage />
      </PageDataContext>,
      '/commit',
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /Комментарий/ }).value).toBe(
      'к подъезду',
    );
    expect(screen.getByRole('button', { name: 'Подтвердить' })).toBeTruthy();
    expect(screen.queryByText(checkoutUnavailable('unreachable'))).toBeNull();
  });

  it('shows the total, the mask placeholder and the policy link', () => {
    renderPage();
    expect(screen.getByTestId('commit-total').textContent?.replace(/\s/g, ' ')).toBe('1 335 ₽');
    expect(phone().getAttribute('placeholder')).toBe('+7(000)000-00-00');
    const link = screen.getByRole('link', { name: 'политикой конфиденциальности' });
    expect(link.getAttribute('href')).toBe('/policy');
  });

  it('keeps `Подтвердить` disabled until the privacy policy is accepted; newsletter is optional', async () => {
    const { user } = renderPage();
    expect(submit().disabled).toBe(true);
    await user.click(newsletter());
    expect(submit().disabled).toBe(true);
    await user.click(policy());
    expect(submit().disabled).toBe(false);
  });

  it('each delivery choice shows its note', async () => {
    const { user } = renderPage();
    expect(screen.queryByTestId('delivery-note')).toBeNull();
    await user.click(courier());
    expect(screen.getByTestId('delivery-note').textContent?.replace(/\s/g, ' ')).toBe(
      'Доставка по городу — 300 ₽, в отдалённые районы — от 500 ₽.',
    );
    await user.click(pickup());
    expect(screen.getByTestId('delivery-note').textContent).toMatch(/Окружное шоссе, 29/);
  });
});

describe('validation on submit', () => {
  it('nothing filled: phone and delivery messages, and the phone gets the focus', async () => {
    const { user } = renderPage();
    await user.click(policy());
    await user.click(submit());
    expect(await screen.findByText('Это обязательное поле')).toBeTruthy();
    expect(screen.getByText('Выберите один из способов получения')).toBeTruthy();
    expect(document.activeElement).toBe(phone());
    expect(phone().getAttribute('aria-invalid')).toBe('true');
    expect(ordersApi.commitOrder).not.toHaveBeenCalled();
  });

  it('a wrong phone says `Некорректный номер` and takes the focus', async () => {
    const { user } = renderPage();
    await user.type(phone(), '8123');
    await user.click(courier());
    await user.click(policy());
    await user.click(submit());
    expect(await screen.findByText('Некорректный номер')).toBeTruthy();
    expect(document.activeElement).toBe(phone());
  });

  it('a good phone but a comment over 150: the comment gets the focus', async () => {
    const { user } = renderPage();
    await user.type(phone(), '9123456789');
    // maxlength stops typing; a script or an old browser could still put more in.
    fireEvent.change(comment(), { target: { value: 'я'.repeat(151) } });
    await user.click(policy());
    await user.click(submit());
    expect(await screen.findByText('Максимальная длина 150')).toBeTruthy();
    expect(document.activeElement).toBe(comment());
  });

  it('only the delivery missing: the first delivery choice gets the focus', async () => {
    const { user } = renderPage();
    await user.type(phone(), '9123456789');
    await user.click(policy());
    await user.click(submit());
    expect(await screen.findByText('Выберите один из способов получения')).toBeTruthy();
    expect(document.activeElement).toBe(courier());
  });

  it('the failing field is scrolled into view', async () => {
    const scroll = vi.spyOn(Element.prototype, 'scrollIntoView');
    const { user } = renderPage();
    await user.click(policy());
    await user.click(submit());
    await screen.findByText('Это обязательное поле');
    expect(scroll.mock.contexts[0]).toBe(phone());
    scroll.mockRestore();
  });

  it('a key press in the phone or the comment resets that field’s error', async () => {
    const { user } = renderPage();
    fireEvent.change(comment(), { target: { value: 'я'.repeat(151) } });
    await user.click(policy());
    await user.click(submit());
    await screen.findByText('Это обязательное поле');
    expect(screen.getByText('Максимальная длина 150')).toBeTruthy();
    await user.click(phone());
    await user.keyboard('{ArrowLeft}');
    expect(screen.queryByText('Это обязательное поле')).toBeNull();
    expect(screen.getByText('Максимальная длина 150')).toBeTruthy();
    await user.click(comment());
    await user.keyboard('{End}');
    expect(screen.queryByText('Максимальная длина 150')).toBeNull();
  });
});

describe('sending', () => {
  async function fillValid(user: ReturnType<typeof userEvent.setup>) {
    await user.type(phone(), '9123456789');
    await user.type(comment(), '  Позвоните за час  ');
    await user.click(pickup());
    await user.click(policy());
  }

  it('posts the order once, even on a double click, then reloads the basket and goes to /order_status', async () => {
    let answer!: (value: unknown) => void;
    ordersApi.commitOrder.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { user, location } = renderPage();
    await fillValid(user);
    expect(phone().value).toBe('+7(912)-345-67-89');
    await user.dblClick(submit());
    // Two submits in the very same moment, before any render could disable the button.
    const form = screen.getByRole('form', { name: 'Подтверждение заказа' });
    act(() => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(1));
    expect(ordersApi.commitOrder).toHaveBeenCalledWith(
      {
        delivery: '2',
        policy_accept: true,
        send_accept: false,
        comment: 'Позвоните за час',
        phone: '+7(912)-345-67-89',
      },
      expect.stringMatching(UUID),
      expect.anything(),
    );
    await act(async () => answer({ id: 8 }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/order_status'));
    expect(basketApi.getBasket).toHaveBeenCalled();
    expect(ordersApi.commitOrder).toHaveBeenCalledTimes(1);
  });

  it('a pasted number in another format is sent in the mask’s form', async () => {
    const { user } = renderPage();
    await user.click(phone());
    await user.paste('8 912 345-67-89');
    expect(phone().value).toBe('+7(912)-345-67-89');
  });

  it('server field errors show on their fields and everything typed stays', async () => {
    ordersApi.commitOrder.mockRejectedValue(
      failure(400, {
        phone: ['Некорректный номер'],
        non_field_errors: ['В корзине нет доступных товаров'],
      }),
    );
    const { user } = renderPage();
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findByText('Некорректный номер')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch('В корзине нет доступных товаров');
    expect(document.activeElement).toBe(phone());
    expect(phone().value).toBe('+7(912)-345-67-89');
    expect(comment().value).toBe('  Позвоните за час  ');
    expect(pickup().checked).toBe(true);
    expect(policy().checked).toBe(true);
    expect(submit().disabled).toBe(false);
  });

  it('any other failure is a Russian message, and a second try sends again', async () => {
    ordersApi.commitOrder.mockRejectedValueOnce(new TypeError('fetch failed'));
    const { user } = renderPage();
    await fillValid(user);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Не удалось отправить заказ: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    );
    await user.click(submit());
    await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(2));
  });

  it('the attempt’s key: the form’s hidden field, the same on a retry, a new one after a refusal', async () => {
    ordersApi.commitOrder
      .mockRejectedValueOnce(new TypeError('fetch failed'))
      .mockRejectedValueOnce(failure(400, { phone: ['Некорректный номер'] }))
      .mockReturnValueOnce(new Promise(() => {}));
    const { user, container } = renderPage();
    await fillValid(user);
    const field = () => container.querySelector<HTMLInputElement>('input[name="idempotency_key"]');
    expect(field()?.type).toBe('hidden');
    await user.click(submit());
    await screen.findByRole('alert');
    await user.click(submit());
    await screen.findByText('Некорректный номер');
    await user.click(submit());
    await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(3));
    const keys = ordersApi.commitOrder.mock.calls.map((call: unknown[]) => call[1]);
    // A network failure: the order may have reached the backend, so the retry is the same attempt.
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    // The backend refused it: the form is changed and sent as a new attempt.
    expect(keys[2]).toMatch(UUID);
    expect(keys[2]).not.toBe(keys[1]);
    // The form a browser would post without the app holds the same.
    expect(field()?.value).toBe(keys[2]);
  });

  it('takes over the key of the server’s form, so both post the same attempt', async () => {
    const served = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    const html = document.createElement('form');
    html.action = '/commit';
    html.innerHTML = `<input type="hidden" name="idempotency_key" value="${served}">`;
    document.body.append(html);
    try {
      const { user } = renderPage();
      await fillValid(user);
      await user.click(submit());
      await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(1));
      expect(ordersApi.commitOrder.mock.calls[0]?.[1]).toBe(served);
    } finally {
      html.remove();
    }
  });

  it('a 409 (the order is being placed): waits, says so, then goes on with the first answer', async () => {
    let replay!: (value: unknown) => void;
    ordersApi.commitOrder
      .mockRejectedValueOnce(failure(409, { detail: 'Заказ с этим ключом ещё оформляется.' }))
      .mockReturnValueOnce(new Promise((resolve) => (replay = resolve)));
    const { user, location } = renderPage();
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findByText(ORDER_IN_PROGRESS)).toBeTruthy();
    await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(2));
    const keys = ordersApi.commitOrder.mock.calls.map((call: unknown[]) => call[1]);
    expect(keys[1]).toBe(keys[0]);
    expect(comment().value).toBe('  Позвоните за час  ');
    await act(async () => replay({ id: 8 }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/order_status'));
  });

  it('a 500 says the server answered with an error, not that there is no connection', async () => {
    ordersApi.commitOrder.mockRejectedValue(failure(500, { detail: 'Внутренняя ошибка сервера.' }));
    const { user } = renderPage();
    await fillValid(user);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Не удалось отправить заказ: сервер магазина ответил ошибкой. Попробуйте ещё раз чуть позже.',
    );
  });
});

describe('the basket around the order', () => {
  async function fillValid(user: ReturnType<typeof userEvent.setup>) {
    await user.type(phone(), '9123456789');
    await user.click(courier());
    await user.click(policy());
  }

  it('a basket change that fails while the order waits for it stops the order and says so', async () => {
    const { user } = renderPage();
    await fillValid(user);
    let failPut!: (error: unknown) => void;
    basketApi.updateBasketAmount.mockReturnValue(
      new Promise((_resolve, reject) => (failPut = reject)),
    );
    // Changed on another tab of the app just before the click: still on its way.
    act(() => void setAmount(raspberry, 2));
    await user.click(submit());
    await act(async () => failPut(new TypeError('fetch failed')));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      'Корзина изменилась: одно из изменений не сохранилось. Проверьте корзину и подтвердите заказ ещё раз.',
    );
    expect(within(alert).getByRole('link', { name: 'Открыть корзину' }).getAttribute('href')).toBe(
      '/order',
    );
    expect(ordersApi.commitOrder).not.toHaveBeenCalled();
    // The form is usable again, and a second try sends the basket as it now is.
    expect(submit().disabled).toBe(false);
    await user.click(submit());
    await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(1));
  });

  it('a change that lands is waited for, and the order goes', async () => {
    const { user } = renderPage();
    await fillValid(user);
    let landPut!: (value: unknown) => void;
    basketApi.updateBasketAmount.mockReturnValue(new Promise((resolve) => (landPut = resolve)));
    act(() => void setAmount(raspberry, 2));
    await user.click(submit());
    expect(ordersApi.commitOrder).not.toHaveBeenCalled();
    await act(async () => landPut({ product: raspberry, amount: 2 }));
    await waitFor(() => expect(ordersApi.commitOrder).toHaveBeenCalledTimes(1));
  });

  it('the ordered lines leave the basket and the total is 0, even when the reload after it fails', async () => {
    ordersApi.commitOrder.mockResolvedValue({
      id: 8,
      created_ts: '2026-11-20T14:05:00+03:00',
      status: 0,
      order_sum: 1335,
      items: [{ id: 1, amount: 1.5, price: 890, product: { id: 7, name: 'Малина', unit: 'кг' } }],
    });
    basketApi.getBasket.mockRejectedValue(new TypeError('fetch failed'));
    // An older total on its way would say 1335 again.
    basketApi.getTotalPrice.mockResolvedValue(1335);
    const { user, location } = renderPage();
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(location.history?.at(-1)).toBe('/order_status'));
    expect(basketApi.getBasket).toHaveBeenCalled();
    expect(basket.lines).toEqual({});
    expect(lineCount(basket.lines)).toBe(0);
    expect(basket.amount_sum).toBe(0);
  });
});
