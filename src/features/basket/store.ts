import { proxy } from 'valtio';
import { deleteBasketLine, getBasket, getTotalPrice, updateBasketAmount } from '../../api/basket';
import type { Basket, BasketEntry, Product } from '../../api/types';
import { notifyError } from '../../ui/notify';

// The basket (spec §3, §4): lines keyed by product id, the total (amount_sum) fetched separately.
export interface BasketState {
  lines: Basket;
  amount_sum: number;
  /** The whole basket is (re)loading. */
  loading: boolean;
  /** Product ids whose line has a call under way. */
  lineLoading: Record<string, boolean>;
  /** The last load failed; the lines shown are the last known ones. */
  loadFailed: boolean;
  loaded: boolean;
}

function initialState(): BasketState {
  return {
    lines: {},
    amount_sum: 0,
    loading: false,
    lineLoading: {},
    loadFailed: false,
    loaded: false,
  };
}

export const basket = proxy<BasketState>(initialState());

export function resetBasket(): void {
  Object.assign(basket, initialState());
}

/** The cart badge counts lines with an amount above 0, not the sum of amounts. */
export function lineCount(lines: Basket): number {
  return Object.values(lines).filter((line) => line.amount > 0).length;
}

export function amountOf(lines: Basket, productId: number): number {
  return lines[String(productId)]?.amount ?? 0;
}

export async function refreshTotal(): Promise<void> {
  try {
    basket.amount_sum = await getTotalPrice();
  } catch {
    // The total is shown from the last answer; the next basket change fetches it again.
  }
}

/** Fetches the basket list, then its total. */
export async function loadBasket(): Promise<void> {
  basket.loading = true;
  try {
    basket.lines = await getBasket();
    basket.loadFailed = false;
    basket.loaded = true;
    await refreshTotal();
  } catch {
    basket.loadFailed = true;
  } finally {
    basket.loading = false;
  }
}

function restoreLine(id: string, previous: BasketEntry | undefined): void {
  if (previous) basket.lines[id] = previous;
  else delete basket.lines[id];
}

/**
 * Sets a line's amount. The change shows at once; when the call fails, the line returns to
 * what it was and a message says so.
 */
export async function setAmount(product: Product, amount: number): Promise<void> {
  const id = String(product.id);
  const previous = basket.lines[id] ? { ...basket.lines[id] } : undefined;
  const next = Math.max(0, amount);
  basket.lines[id] = { product, amount: next };
  basket.lineLoading[id] = true;
  try {
    const entry = await updateBasketAmount(product.id, next);
    if (entry.amount > 0) basket.lines[id] = entry;
    else delete basket.lines[id];
    await refreshTotal();
  } catch {
    restoreLine(id, previous);
    notifyError(`Не удалось изменить количество: «${product.name}». Попробуйте ещё раз.`);
  } finally {
    delete basket.lineLoading[id];
  }
}

export async function removeLine(product: Product): Promise<void> {
  const id = String(product.id);
  const previous = basket.lines[id] ? { ...basket.lines[id] } : undefined;
  delete basket.lines[id];
  basket.lineLoading[id] = true;
  try {
    await deleteBasketLine(product.id);
    await refreshTotal();
  } catch {
    restoreLine(id, previous);
    notifyError(`Не удалось убрать из корзины: «${product.name}». Попробуйте ещё раз.`);
  } finally {
    delete basket.lineLoading[id];
  }
}
