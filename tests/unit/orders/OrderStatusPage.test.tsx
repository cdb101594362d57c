import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src/api/types';
import { formatOrderDate } from '../../../src/lib/date';
import { STATUS_BOT_URL } from '../../../src/lib/shop-info';
import { TimeZoneContext } from '../../../src/ui/time-zone';
import { renderAt } from '../render';

const ordersApi = vi.hoisted(() => ({ commitOrder: vi.fn(), getOrderHistory: vi.fn() }));
vi.mock('../../../src/api/orders', () => ordersApi);

const { preloadPage, Routes } = await import('../../../src/app/routes');
const { statusBadgeColor, statusColor, statusLabel } =
  await import('../../../src/features/orders/order-status');

const order = (
  id: number,
  status: Order['status'],
  created_ts: string,
  items: Order['items'],
): Order => ({
  id,
  status,
  created_ts,
  order_sum: items.reduce((sum, item) => sum + Math.round(item.amount * item.price * 100) / 100, 0),
  items,
});

const history: Order[] = [
  order(1, 3, '2026-09-10T11:05:00+03:00', [
    { id: 1, amount: 1.5, price: 890, product: { id: 7, name: 'Малина', unit: 'кг' } },
    {
      id: 2,
      amount: 2,
      price: 390,
      product: { id: 43, name: 'Варенье клубничное, 400 г', unit: 'шт' },
    },
  ]),
  order(2, 0, '2026-11-18T10:08:00+03:00', [
    { id: 3, amount: 0.7, price: 640, product: { id: 22, name: 'Клюква', unit: 'кг' } },
  ]),
];

const text = (element: HTMLElement) => element.textContent?.replace(/\s/g, ' ');

beforeEach(() => {
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
});
afterEach(() => vi.clearAllMocks());

// The page comes with its route (it takes its data as props), its code loaded before the test.
beforeAll(() => preloadPage('/order_status'));
describe('order statuses', () => {
  it.each<[number, string, string | undefined]>([
    [0, 'Создан', undefined],
    [1, 'В работе', undefined],
    [2, 'Подтвержден', undefined],
    [3, 'Выполнен', 'green'],
    [4, 'Отменен', 'red'],
    [5, 'Не актуально', 'red'],
  ])('%i is %s', (status, label, color) => {
    expect(statusLabel(status)).toBe(label);
    expect(statusColor(status)).toBe(color);
    // Primary statuses take the theme colour; the others a shade that keeps white text readable.
    expect(statusBadgeColor(status) === undefined).toBe(color === undefined);
  });
});

describe('the orders page', () => {
  it('shows each date in the shop’s time zone as the page was given it (SHOP_TIME_ZONE)', async () => {
    ordersApi.getOrderHistory.mockResolvedValue(history);
    renderAt(
      <TimeZoneContext value="Asia/Vladivostok">
        <Routes />
      </TimeZoneContext>,
      '/order_status',
    );
    const [newest] = await screen.findAllByTestId('order');
    // 10:08 in Moscow is 17:08 in Vladivostok.
    expect(within(newest!).getByText('18.11.2026, 17:08')).toBeTruthy();
  });

  it('lists orders newest first with date, sum chip and status chip', async () => {
    ordersApi.getOrderHistory.mockResolvedValue(history);
    renderAt(<Routes />, '/order_status');
    const rows = await screen.findAllByTestId('order');
    expect(rows).toHaveLength(2);
    const [newest, oldest] = rows as [HTMLElement, HTMLElement];
    expect(within(newest).getByText('Заказ № 2')).toBeTruthy();
    expect(within(newest).getByText(formatOrderDate('2026-11-18T10:08:00+03:00'))).toBeTruthy();
    expect(text(within(newest).getByTestId('order-sum'))).toBe('448 ₽');
    expect(within(newest).getByTestId('order-status').textContent).toBe('Создан');
    expect(text(within(oldest).getByTestId('order-sum'))).toBe('2 115 ₽');
    expect(within(oldest).getByTestId('order-status').textContent).toBe('Выполнен');
  });

  it('an opened order shows product links, quantities with units and sums', async () => {
    ordersApi.getOrderHistory.mockResolvedValue(history);
    renderAt(<Routes />, '/order_status');
    const oldest = (await screen.findAllByTestId('order'))[1]!;
    fireEvent.click(within(oldest).getByRole('button', { name: /Заказ № 1/ }));
    const table = within(oldest).getByRole('table', { hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true });
    expect(rows.map((row) => text(row))).toEqual([
      'ТоварКоличествоСумма',
      'Малина1,5 кг1 335 ₽',
      'Варенье клубничное, 400 г2 шт780 ₽',
    ]);
    const link = within(table).getByRole('link', { name: 'Малина', hidden: true });
    expect(link.getAttribute('href')).toBe('/product/7');
  });

  it('points to the chat bot for status updates', async () => {
    ordersApi.getOrderHistory.mockResolvedValue(history);
    renderAt(<Routes />, '/order_status');
    const bot = await screen.findByRole('link', { name: /чат-бот/ });
    expect(bot.getAttribute('href')).toBe(STATUS_BOT_URL);
    expect(bot.getAttribute('target')).toBe('_blank');
  });

  it('when there are none: `У вас пока нет заказов`', async () => {
    ordersApi.getOrderHistory.mockResolvedValue([]);
    renderAt(<Routes />, '/order_status');
    expect(await screen.findByText('У вас пока нет заказов')).toBeTruthy();
  });

  it('a failed load offers `Повторить`', async () => {
    ordersApi.getOrderHistory
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(history);
    renderAt(<Routes />, '/order_status');
    fireEvent.click(await screen.findByRole('button', { name: 'Повторить' }));
    expect(await screen.findAllByTestId('order')).toHaveLength(2);
  });
});
