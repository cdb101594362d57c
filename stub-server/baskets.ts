// Baskets per owner (`user:{id}` or `session:{sessionid}`): lines of product id -> amount.
import type { Basket } from '../src/api/types.ts';
import { nowIso } from './clock.ts';
import type { StoredProduct, StubData } from './db.ts';
import { lineTotal, round2 } from './numbers.ts';
import { findProduct, toBasketEntry } from './serializers.ts';

export function basketLines(data: StubData, owner: string): [StoredProduct, number][] {
  const lines = data.baskets[owner]?.lines ?? {};
  return Object.entries(lines).flatMap(([id, amount]) => {
    const product = findProduct(data, Number(id));
    return product && amount > 0 ? [[product, amount] as [StoredProduct, number]] : [];
  });
}

export function basketOf(data: StubData, owner: string): Basket {
  const basket: Basket = {};
  for (const [product, amount] of basketLines(data, owner)) {
    basket[String(product.id)] = toBasketEntry(product, amount);
  }
  return basket;
}

/** Lines that can be ordered: available, priced, amount above 0. */
export function orderableLines(data: StubData, owner: string): [StoredProduct, number][] {
  return basketLines(data, owner).filter(
    ([product]) => product.available && product.price !== null,
  );
}

/** amount_sum: amount times price over the orderable lines, 2 decimals. */
export function basketTotal(data: StubData, owner: string): number {
  return round2(
    orderableLines(data, owner).reduce(
      (sum, [product, amount]) => sum + lineTotal(amount, product.price ?? 0),
      0,
    ),
  );
}

/** Sets one line; amount 0 removes it. The caller saves. */
export function setLine(data: StubData, owner: string, productId: number, amount: number): void {
  const basket = data.baskets[owner] ?? { lines: {}, updated_ts: nowIso() };
  if (amount > 0) basket.lines[String(productId)] = amount;
  else delete basket.lines[String(productId)];
  basket.updated_ts = nowIso();
  if (Object.keys(basket.lines).length > 0) data.baskets[owner] = basket;
  else delete data.baskets[owner];
}

/** Moves the lines of one basket into another; a product in both keeps the larger amount. */
export function mergeBasket(data: StubData, from: string, to: string): void {
  const source = data.baskets[from];
  if (!source || from === to) return;
  for (const [id, amount] of Object.entries(source.lines)) {
    const current = data.baskets[to]?.lines[id] ?? 0;
    setLine(data, to, Number(id), Math.max(current, amount));
  }
  delete data.baskets[from];
}
