// The checkout form posted to the shop's server (before the app's code arrived, or without it):
// judged by the app's own rules and messages (features/checkout/commit-form.ts), then sent as the
// visitor's order, under the attempt's key the form carries (features/checkout/order-attempt.ts):
// the same form posted twice, to one instance or two, places one order.
import { getBasket } from '../api/basket';
import { fieldErrors } from '../api/http';
import type { Basket } from '../api/types';
import { orderableLineCount } from '../features/basket/store';
import {
  commitErrors,
  commitFieldsOf,
  commitValuesFrom,
  orderFailureText,
  orderNotSentText,
  splitServerErrors,
  toOrderCommit,
} from '../features/checkout/commit-form';
import {
  ATTEMPT_FIELD,
  commitAttempt,
  isAttemptKey,
  newAttemptKey,
  refusedAsInvalid,
} from '../features/checkout/order-attempt';
import type { FormOutcome } from '../ui/page-data';
import type { BackendCalls } from './backend-calls';
import type { CheckoutRefusal } from './recorder';

/** The backend did not answer in time before the order was sent: nothing was ordered. */
export const ORDER_LATE =
  'Сервер магазина не ответил вовремя, заказ не оформлен. Попробуйте ещё раз чуть позже: всё, что вы ввели, сохранено.';
/** The order was sent, and no answer came in time: the shop cannot tell whether it was placed. */
export const ORDER_MAYBE_PLACED =
  'Сервер магазина не ответил вовремя: заказ мог быть оформлен. Проверьте раздел «Заказы», прежде чем отправлять ещё раз.';

export type CommitFormResult =
  /**
   * The order is placed: on to /order_status. `key`: the attempt's; `again` when this post got
   * the answer of an earlier post of the same attempt (its order is no new one).
   */
  | { kind: 'placed'; key: string; again: boolean }
  /** Nothing to order (placed already, or the basket emptied): /commit says so. */
  | { kind: 'empty' }
  /** The form again, as it was sent, with the messages of what failed, and why (the metrics'). */
  | { kind: 'refused'; outcome: FormOutcome; reason: CheckoutRefusal };

export async function placeOrderByForm(
  calls: BackendCalls,
  fields: Record<string, unknown>,
): Promise<CommitFormResult> {
  const { api } = calls;
  const values = commitValuesFrom(fields);
  // A form from a page without the field (or with a forged one) is an attempt of its own.
  const posted = fields[ATTEMPT_FIELD];
  const key = isAttemptKey(posted) ? posted : newAttemptKey();
  /** The form again; it keeps its key unless the backend refused the order (a new attempt). */
  const refused = (
    reason: CheckoutRefusal,
    errors: Record<string, string>,
    notice?: string,
    nextKey = key,
  ): CommitFormResult => ({
    kind: 'refused',
    reason,
    outcome: {
      values: { ...commitFieldsOf(values), [ATTEMPT_FIELD]: nextKey },
      errors,
      ...(notice ? { notice } : {}),
    },
  });
  const errors = commitErrors(values);
  if (Object.keys(errors).length > 0) return refused('invalid', errors);
  let lines: Basket;
  try {
    // Also the session's CSRF token, should the visitor have none yet.
    lines = await getBasket(api);
  } catch (error) {
    return calls.timedOut()
      ? refused('late', {}, ORDER_LATE)
      : refused('failed', {}, orderNotSentText(error));
  }
  const order = toOrderCommit(values);
  if (orderableLineCount(lines) === 0) {
    // Emptied by this very attempt, placed a moment ago (the first of a double click, on another
    // instance perhaps): the backend answers it again. Else there is nothing to order.
    try {
      await commitAttempt(order, key, { api });
      return { kind: 'placed', key, again: true };
    } catch {
      return { kind: 'empty' };
    }
  }
  try {
    // A 409 (the first post of this form is being placed) waits for its answer.
    await commitAttempt(order, key, { api });
    return { kind: 'placed', key, again: false };
  } catch (error) {
    if (calls.timedOut()) return refused('maybe_placed', {}, ORDER_MAYBE_PLACED);
    if (refusedAsInvalid(error)) {
      const { fields: onFields, rest } = splitServerErrors(fieldErrors(error));
      // As the app does: a message on the fields it names, and one for the form if anything else.
      const onlyFields = Object.keys(onFields).length > 0 && rest.length === 0;
      return refused(
        'invalid',
        onFields as Record<string, string>,
        onlyFields ? undefined : orderFailureText(error, rest),
        newAttemptKey(),
      );
    }
    return refused('failed', {}, orderFailureText(error, []));
  }
}
