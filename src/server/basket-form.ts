// A basket control posted to the shop's server (before the app's code arrived, or without it):
// the change is made for the visitor with the same rules as the app's (features/basket).
import { deleteBasketLine, getBasket, updateBasketAmount } from '../api/basket';
import { getProduct } from '../api/catalog';
import { errorStatus } from '../api/http';
import type { Product } from '../api/types';
import { changeFailedText, isBasketChange, requestedAmount } from '../features/basket/basket-form';
import { parseCatalogId } from '../features/catalog/catalog-id';

export const FORM_BROKEN =
  'Не удалось изменить корзину: форма пришла неполной. Попробуйте ещё раз.';
export const PRODUCT_GONE = 'Этого товара больше нет в каталоге.';
export const BASKET_UNREACHABLE =
  'Не удалось изменить корзину. Проверьте соединение и попробуйте ещё раз.';

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
export async function changeBasketByForm(fields: BasketFormFields): Promise<string | null> {
  const id = typeof fields.product === 'string' ? parseCatalogId(fields.product) : null;
  const { change } = fields;
  if (id === null || !isBasketChange(change)) return FORM_BROKEN;
  let product: Product;
  let current: number;
  try {
    // The basket first: the line's amount now (the page may be older), and for a newcomer the
    // session and CSRF token that the change needs.
    const line = (await getBasket())[String(id)];
    product = line?.product ?? (await getProduct(id));
    current = line?.amount ?? 0;
  } catch (error) {
    return errorStatus(error) === 404 ? PRODUCT_GONE : BASKET_UNREACHABLE;
  }
  const typed = typeof fields.amount === 'string' ? fields.amount : '';
  const amount = requestedAmount(change, product, current, typed);
  if (amount === undefined || amount === current) return null;
  try {
    if (amount === null) await deleteBasketLine(id);
    else await updateBasketAmount(id, amount);
    return null;
  } catch (error) {
    return changeFailedText(product, amount === null, error);
  }
}
