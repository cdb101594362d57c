// A basket control posted to the shop's server (before the app's code arrived, or without it):
// the change is made for the visitor with the same rules as the app's (features/basket).
import { deleteBasketLine, getBasket, updateBasketAmount } from '../api/basket';
import { getProduct } from '../api/catalog';
import { failureCase, type FailureCase } from '../api/call-failure';
import { errorStatus } from '../api/http';
import type { Product } from '../api/types';
import { changeFailedText, isBasketChange, requestedAmount } from '../features/basket/basket-form';
import { parseCatalogId } from '../features/catalog/catalog-id';
import { failureText } from '../ui/failure-text';
import type { BackendCalls } from './backend-calls';

export const FORM_BROKEN =
  'Не удалось изменить корзину: форма пришла неполной. Попробуйте ещё раз.';
export const PRODUCT_GONE = 'Этого товара больше нет в каталоге.';
/** The backend did not answer in time before the change was sent: nothing changed. */
export const BASKET_LATE =
  'Сервер магазина не ответил вовремя, корзина не изменилась. Попробуйте ещё раз чуть позже.';
/** The change was sent, and no answer came in time: the shop cannot tell whether it landed. */
export const BASKET_MAYBE_CHANGED =
  'Сервер магазина не ответил вовремя: корзина могла измениться. Проверьте её, прежде чем повторять.';

/** A call before the change failed (the basket, the product): nothing changed, by the case. */
export const basketFailedText = (failure: FailureCase): string =>
  failureText('Не удалось изменить корзину', failure);

/** What a basket control's form sends. */
export interface BasketFormFields {
  product?: unknown;
  change?: unknown;
  amount?: unknown;
}

/**
 * Makes the change the form asks for. Resolves with the message to show the shopper when it did
 * not land, or null when it did (or when it asked for nothing new).
 */
export async function changeBasketByForm(
  calls: BackendCalls,
  fields: BasketFormFields,
): Promise<string | null> {
  const { api } = calls;
  const id = typeof fields.product === 'string' ? parseCatalogId(fields.product) : null;
  const { change } = fields;
  if (id === null || !isBasketChange(change)) return FORM_BROKEN;
  let product: Product;
  let current: number;
  try {
    // The basket first: the line's amount now (the page may be older), and for a newcomer the
    // session and CSRF token that the change needs.
    const line = (await getBasket(api))[String(id)];
    product = line?.product ?? (await getProduct(id, api));
    current = line?.amount ?? 0;
  } catch (error) {
    if (calls.timedOut()) return BASKET_LATE;
    if (errorStatus(error) === 404) return PRODUCT_GONE;
    return basketFailedText(failureCase(error));
  }
  const typed = typeof fields.amount === 'string' ? fields.amount : '';
  const amount = requestedAmount(change, product, current, typed);
  if (amount === undefined || amount === current) return null;
  try {
    if (amount === null) await deleteBasketLine(id, api);
    else await updateBasketAmount(id, amount, api);
    return null;
  } catch (error) {
    if (calls.timedOut()) return BASKET_MAYBE_CHANGED;
    return changeFailedText(product, amount === null, error);
  }
}
