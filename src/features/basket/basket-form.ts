import { failureCase } from '../../api/call-failure';
import { fieldErrors } from '../../api/http';
import type { Product } from '../../api/types';
import {
  clampAmount,
  decreased,
  increased,
  parseAmountText,
  precisionOf,
  sanitizeAmountText,
  stepOf,
} from '../../lib/amount';
import { failureText } from '../../ui/failure-text';

// A basket control is a form (spec §4, §5): the shop's server handles it before the app's code
// arrives, and without it; after hydration the app handles the same form. Both decide the new
// amount here, with the rules of src/lib/amount.ts.

/** Where a basket control posts. */
export const BASKET_ACTION = '/basket';

/** The button pressed (the form's `change`); `set` is the amount field's Enter. */
export type BasketChange = 'add' | 'plus' | 'minus' | 'delete' | 'set';

export function isBasketChange(value: unknown): value is BasketChange {
  return ['add', 'plus', 'minus', 'delete', 'set'].includes(value as string);
}

/**
 * The amount a form asks for, from the line's `current` amount: null takes the line out
 * (DELETE); undefined changes nothing (a typed text with no number in it; `В корзину` from a page
 * older than the basket, whose line already holds more: it must not be replaced by one step).
 */
export function requestedAmount(
  change: BasketChange,
  product: Product,
  current: number,
  typed = '',
): number | null | undefined {
  switch (change) {
    case 'add':
      // Not clamped: for a product sold out since the page was drawn, the backend says why.
      return current > 0 ? undefined : stepOf(product);
    case 'plus':
      return increased(product, current);
    case 'minus':
      return decreased(product, current);
    case 'delete':
      return null;
    case 'set': {
      // Read as the amount field reads what is typed into it.
      const value = parseAmountText(sanitizeAmountText(typed, precisionOf(product)));
      return value === null ? undefined : clampAmount(product, value);
    }
  }
}

/**
 * The message of a change the server refused (its reason, when it gives one for the amount), or
 * that failed: why, by the failure's case.
 */
export function changeFailedText(product: Product, removal: boolean, error: unknown): string {
  const reason = fieldErrors(error).amount?.[0];
  const what = removal
    ? `Не удалось убрать из корзины «${product.name}»`
    : `Не удалось изменить количество «${product.name}»`;
  return reason ? `${what}: ${reason}` : failureText(what, failureCase(error));
}
