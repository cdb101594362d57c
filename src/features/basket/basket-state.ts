// The basket's state (spec §3, §4) and what is read from it: the lines keyed by product id, the
// total (amount_sum) fetched separately, and what waits for the server.
import type { FailureCase } from '../../api/call-failure';
import type { Basket, BasketEntry, Product } from '../../api/types';
import { lineSum } from '../../lib/amount';
import { hasPrice } from '../../lib/product-text';
import { roundTo } from '../../lib/round';

export interface BasketState {
  lines: Basket;
  amount_sum: number;
  /** The whole basket is (re)loading: every control waits. */
  loading: boolean;
  /**
   * Product ids whose line is being saved (PUT) or removed (DELETE): that line's controls wait
   * for the server's answer (spec §4), on every screen that shows it.
   */
  lineLoading: Record<string, boolean>;
  /** Why the last load failed (null: it did not); the lines shown are the last known ones. */
  loadFailure: FailureCase | null;
  loaded: boolean;
  /** The last total_price call failed: amount_sum is the last known total, maybe out of date. */
  totalFailed: boolean;
  /**
   * Products as the server showed them after it refused a change of their line (400/404: the
   * stock fell, the product went out of sale). Newer than what a page loaded before, so the
   * controls use them: plus stops at the new maximum instead of failing again.
   */
  checkedProducts: Record<string, Product>;
}

export function initialState(): BasketState {
  return {
    lines: {},
    amount_sum: 0,
    loading: false,
    lineLoading: {},
    loadFailure: null,
    loaded: false,
    totalFailed: false,
    checkedProducts: {},
  };
}

/** The visitor's basket as the server rendered it: the list and its total. */
export interface BasketSeed {
  lines: Basket;
  amount_sum: number;
}

/**
 * What a page starts with: the basket as the server rendered it, or why the server did not have
 * it (the backend down, an error, an odd answer). The page says so until the app, once it runs,
 * loads it again.
 */
export type BasketStart = BasketSeed | FailureCase;

export function seededBasket(start: BasketStart): BasketState {
  return typeof start === 'string'
    ? { ...initialState(), loadFailure: start }
    : { ...initialState(), ...start, loaded: true };
}

/** The cart badge counts lines with an amount above 0, not the sum of amounts. */
export function lineCount(lines: Basket): number {
  return Object.values(lines).filter((line) => line.amount > 0).length;
}

/** Lines an order would take: available, priced, with an amount above 0. */
export function orderableLineCount(lines: Basket): number {
  return Object.values(lines).filter(isOrderable).length;
}

export function amountOf(lines: Basket, productId: number): number {
  return lines[String(productId)]?.amount ?? 0;
}

export function isOrderable({ product, amount }: BasketEntry): boolean {
  return product.available && hasPrice(product) && amount > 0;
}

/** amount_sum as the server counts it: the available, priced lines. */
export function orderableTotal(lines: Basket): number {
  const sum = Object.values(lines)
    .filter(isOrderable)
    .reduce((total, { product, amount }) => total + lineSum(amount, product.price ?? 0), 0);
  return roundTo(sum, 2);
}

/** The product as the basket controls should judge it: re-read after a refusal, if it was. */
export function checkedProduct(
  checked: Readonly<Record<string, Product>>,
  product: Product,
): Product {
  return checked[String(product.id)] ?? product;
}
