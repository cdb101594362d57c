// The checkout form posted to the shop's server (before the app's code arrived, or without it):
// judged by the app's own rules and messages (features/checkout/commit-form.ts), then sent as the
// visitor's order.
import { getBasket } from '../api/basket';
import { fieldErrors } from '../api/http';
import { commitOrder } from '../api/orders';
import type { Basket } from '../api/types';
import { orderableLineCount } from '../features/basket/store';
import {
  commitErrors,
  commitFieldsOf,
  commitValuesFrom,
  orderFailureText,
  splitServerErrors,
  toOrderCommit,
} from '../features/checkout/commit-form';
import type { FormOutcome } from '../ui/page-data';
import type { BackendCalls } from './backend-calls';

/** The backend did not answer in time before the order was sent: nothing was ordered. */
export const ORDER_LATE =
  'Сервер магазина не ответил вовремя, заказ не оформлен. Попробуйте ещё раз чуть позже: всё, что вы ввели, сохранено.';
/** The order was sent, and no answer came in time: the shop cannot tell whether it was placed. */
export const ORDER_MAYBE_PLACED =
  'Сервер магазина не ответил вовремя: заказ мог быть оформлен. Проверьте раздел «Заказы», прежде чем отправлять ещё раз.';

export type CommitFormResult =
  /** The order is placed: on to /order_status. */
  | { kind: 'placed' }
  /** Nothing to order (placed already, or the basket emptied): /commit says so. */
  | { kind: 'empty' }
  /** The form again, as it was sent, with the messages of what failed. */
  | { kind: 'refused'; outcome: FormOutcome };

export async function placeOrderByForm(
  calls: BackendCalls,
  fields: Record<string, unknown>,
): Promise<CommitFormResult> {
  const { api } = calls;
  const values = commitValuesFrom(fields);
  const refused = (errors: Record<string, string>, notice?: string): CommitFormResult => ({
    kind: 'refused',
    outcome: { values: commitFieldsOf(values), errors, ...(notice ? { notice } : {}) },
  });
  const errors = commitErrors(values);
  if (Object.keys(errors).length > 0) return refused(errors);
  let lines: Basket;
  try {
    // Also the session's CSRF token, should the visitor have none yet.
    lines = await getBasket(api);
  } catch (error) {
    return refused({}, calls.timedOut() ? ORDER_LATE : orderFailureText(error, []));
  }
  if (orderableLineCount(lines) === 0) return { kind: 'empty' };
  try {
    await commitOrder(toOrderCommit(values), api);
    return { kind: 'placed' };
  } catch (error) {
    if (calls.timedOut()) return refused({}, ORDER_MAYBE_PLACED);
    const { fields: onFields, rest } = splitServerErrors(fieldErrors(error));
    // As the app does: a message on the fields it names, and one for the form if anything else.
    const onlyFields = Object.keys(onFields).length > 0 && rest.length === 0;
    return refused(
      onFields as Record<string, string>,
      onlyFields ? undefined : orderFailureText(error, rest),
    );
  }
}
