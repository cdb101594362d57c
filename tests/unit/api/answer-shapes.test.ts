// The shapes the shop's server checks the backend's answers against (src/api/answer-shapes.ts)
// may be no stricter than the pact: an answer the pact allows must pass, or a backend that passes
// verification would show «не загрузилось» in front of the shop.
import { safeParse } from 'valibot';
import { describe, expect, it } from 'vitest';
import { answerShape } from '../../../src/api/answer-shapes';

const order = (status: unknown) => ({
  id: 12,
  created_ts: '2026-11-20T14:05:00+03:00',
  status,
  order_sum: 890,
  items: [{ id: 1, amount: 1, price: 890, product: { id: 7, name: 'Малина', unit: 'кг' } }],
});

describe("order_history's shape", () => {
  const shape = answerShape('GET', '/catalog/order_history');

  it('takes any integer status, as the pact does: a newer backend adds one', () => {
    expect(shape).toBeDefined();
    for (const status of [0, 5, 6, 17]) {
      expect(safeParse(shape!, [order(status)]).success, String(status)).toBe(true);
    }
  });

  it('refuses a status that is no integer (its label, a string)', () => {
    for (const status of ['Создан', '0', 1.5, null]) {
      expect(safeParse(shape!, [order(status)]).success, String(status)).toBe(false);
    }
  });
});
