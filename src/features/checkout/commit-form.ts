import { failureCase } from '../../api/call-failure';
import { errorStatus } from '../../api/http';
import type { Delivery, OrderCommit } from '../../api/types';
import { normalizePhone, phoneError } from '../../lib/phone';
import { failureText } from '../../ui/failure-text';
import { ORDER_STILL_IN_PROGRESS } from './order-attempt';
import { paths } from '../../lib/paths';

// The checkout form's values and rules (spec §5), apart from the screen that shows them.
export const COMMENT_MAX = 150;
export const COMMENT_TOO_LONG = 'Максимальная длина 150';
export const DELIVERY_REQUIRED = 'Выберите один из способов получения';
/**
 * With the app, `Подтвердить` waits for the tick (spec §4); a form posted without it is refused
 * with this.
 */
export const POLICY_REQUIRED = 'Без согласия с политикой конфиденциальности заказ не отправить';
/** Where the checkout form posts without the app (host/forms/visitor-forms.ts). */
export const COMMIT_ACTION = paths.commit();

export interface CommitValues {
  phone: string;
  comment: string;
  /** '' until the shopper chooses. */
  delivery: Delivery | '';
  policy_accept: boolean;
  send_accept: boolean;
}

export type CommitField = keyof CommitValues;

export const initialCommitValues: CommitValues = {
  phone: '',
  comment: '',
  delivery: '',
  policy_accept: false,
  send_accept: false,
};

/**
 * On a failed submit, the first of these with an error gets the focus (spec §4). The policy box
 * fails only in a form posted without the app.
 */
export const FOCUS_ORDER = ['phone', 'comment', 'delivery', 'policy_accept'] as const;
export type FocusField = (typeof FOCUS_ORDER)[number];

export const commitRules = {
  phone: (value: string) => phoneError(value),
  comment: (value: string) => (value.length > COMMENT_MAX ? COMMENT_TOO_LONG : null),
  delivery: (value: CommitValues['delivery']) => (value === '' ? DELIVERY_REQUIRED : null),
  policy_accept: (value: boolean) => (value ? null : POLICY_REQUIRED),
};

/** The messages of the fields that break a rule (none: the order may go). */
export function commitErrors(values: CommitValues): Partial<Record<CommitField, string>> {
  const found = {
    phone: commitRules.phone(values.phone),
    comment: commitRules.comment(values.comment),
    delivery: commitRules.delivery(values.delivery),
    policy_accept: commitRules.policy_accept(values.policy_accept),
  };
  const errors: Partial<Record<CommitField, string>> = {};
  for (const [field, message] of Object.entries(found)) {
    if (message) errors[field as CommitField] = message;
  }
  return errors;
}

/**
 * The form's values from its fields as a browser posts them (or as the server's HTML holds them
 * when the app takes it over): a box is ticked when sent, the phone in any common writing.
 */
export function commitValuesFrom(fields: Record<string, unknown>): CommitValues {
  const text = (name: string) => (typeof fields[name] === 'string' ? fields[name] : '');
  const delivery = text('delivery');
  return {
    phone: normalizePhone(text('phone')),
    comment: text('comment'),
    delivery: delivery === '1' || delivery === '2' ? delivery : '',
    policy_accept: fields.policy_accept !== undefined,
    send_accept: fields.send_accept !== undefined,
  };
}

/** The values as the form's fields hold them in the page (a posted form shown again). */
export function commitFieldsOf(values: CommitValues): Record<string, string> {
  const fields: Record<string, string> = {
    phone: values.phone,
    comment: values.comment,
    delivery: values.delivery,
  };
  if (values.policy_accept) fields.policy_accept = 'on';
  if (values.send_accept) fields.send_accept = 'on';
  return fields;
}

export function firstFailingField(errors: Record<string, unknown>): FocusField | null {
  return FOCUS_ORDER.find((field) => Boolean(errors[field])) ?? null;
}

/** The order_commit body of valid values. */
export function toOrderCommit(values: CommitValues): OrderCommit {
  if (values.delivery === '') throw new Error('toOrderCommit: the delivery is not chosen');
  return {
    delivery: values.delivery,
    policy_accept: values.policy_accept,
    send_accept: values.send_accept,
    comment: values.comment.trim(),
    phone: values.phone,
  };
}

const FIELDS: readonly string[] = Object.keys(initialCommitValues);

/**
 * Splits a DRF 400 answer: messages of the form's own fields go onto them; the rest
 * (`non_field_errors`, unknown fields) is one message for the whole form.
 */
export function splitServerErrors(errors: Record<string, string[]>): {
  fields: Partial<Record<CommitField, string>>;
  rest: string[];
} {
  const fields: Partial<Record<CommitField, string>> = {};
  const rest: string[] = [];
  for (const [field, messages] of Object.entries(errors)) {
    if (FIELDS.includes(field)) fields[field as CommitField] = messages.join(' ');
    else rest.push(...messages);
  }
  return { fields, rest };
}

/** The order was not sent: a call before it failed (the basket), by the failure's case. */
export const orderNotSentText = (error: unknown): string =>
  failureText('Не удалось отправить заказ', failureCase(error));

/**
 * The message for the whole form when order_commit failed: the server's own, or why. An answer
 * the shop cannot read may be of a placed order, and a repeat of the attempt gets it again: the
 * shopper looks at the orders first.
 */
export function orderFailureText(error: unknown, rest: string[]): string {
  if (rest.length > 0) return rest.join(' ');
  if (errorStatus(error) === 409) return ORDER_STILL_IN_PROGRESS;
  const failure = failureCase(error);
  if (failure === 'unreadable') {
    return failureText(
      'Не удалось подтвердить заказ',
      failure,
      'Заказ мог быть оформлен: проверьте раздел «Заказы», прежде чем отправлять ещё раз.',
    );
  }
  return failureText('Не удалось отправить заказ', failure);
}
