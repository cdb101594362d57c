import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/api/types';
import { newestFirst } from '../../../src/features/orders/newest-first';

const order = (id: number, created_ts: string): Order => ({
  id,
  created_ts,
  status: 0,
  order_sum: 100,
  items: [],
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [
      item,
      ...rest,
    ]),
  );
}

const ids = (orders: readonly Order[]) => orders.map((o) => o.id);

describe('the order history, newest first', () => {
  it('by date, whatever order the server sends', () => {
    const history = [
      order(1, '2026-09-10T11:05:00+03:00'),
      order(3, '2026-11-20T14:05:00+03:00'),
      order(2, '2026-11-18T10:08:00+03:00'),
    ];
    for (const sent of permutations(history)) expect(ids(newestFirst(sent))).toEqual([3, 2, 1]);
  });

  it('the same moment: the larger id, the later order', () => {
    const at = '2026-11-20T14:05:00+03:00';
    for (const sent of permutations([order(4, at), order(6, at), order(5, at)])) {
      expect(ids(newestFirst(sent))).toEqual([6, 5, 4]);
    }
  });

  it('a timestamp that does not parse goes last and does not shuffle the others', () => {
    const history = [
      order(1, '2026-09-10T11:05:00+03:00'),
      order(9, 'вчера'),
      order(3, '2026-11-20T14:05:00+03:00'),
      order(8, ''),
      order(2, '2026-11-18T10:08:00+03:00'),
    ];
    for (const sent of permutations(history)) {
      expect(ids(newestFirst(sent))).toEqual([3, 2, 1, 9, 8]);
    }
  });

  it('leaves the list it was given as it was', () => {
    const history = [order(1, '2026-09-10T11:05:00+03:00'), order(2, '2026-11-18T10:08:00+03:00')];
    newestFirst(history);
    expect(ids(history)).toEqual([1, 2]);
  });
});
