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

export type CommitFormResult =
  /** The order is placed: on to /order_status. */
  | { kind: 'placed' }
  /** Nothing to order (placed already, or the basket emptied): /commit says so. */
  | { kind: 'empty' }
  /** The form again, as it was sent, with the messages of what failed. */
  | { kind: 'refused'; outcome: FormOutcome };

export async function placeOrderByForm(fields: Record<string, unknown>): Promise<CommitFormResult> {
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
    lines = await getBasket();
  } catch (error) {
    return refused({}, orderFailureText(error, []));
  }
  if (orderableLineCount(lines) === 0) return { kind: 'empty' };
  try {
    await commitOrder(toOrderCommit(values));
    return { kind: 'placed' };
  } catch (error) {
    const { fields: onFields, rest } = splitServerErrors(fieldErrors(error));
    // As the app does: a message on the fields it names, and one for the form if anything else.
    const onlyFields = Object.keys(onFields).length > 0 && rest.length === 0;
    return refused(
      onFields as Record<string, string>,
      onlyFields ? undefined : orderFailureText(error, rest),
    );
  }
}
