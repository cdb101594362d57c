import type { Delivery, OrderCommit } from '../../api/types';
import { phoneError } from '../../lib/phone';

// The checkout form's values and rules (spec §5), apart from the screen that shows them.
export const COMMENT_MAX = 150;
export const COMMENT_TOO_LONG = 'Максимальная длина 150';
export const DELIVERY_REQUIRED = 'Выберите один из способов получения';

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

/** On a failed submit, the first of these with an error gets the focus (spec §4). */
export const FOCUS_ORDER = ['phone', 'comment', 'delivery'] as const;
export type FocusField = (typeof FOCUS_ORDER)[number];

export const commitRules = {
  phone: (value: string) => phoneError(value),
  comment: (value: string) => (value.length > COMMENT_MAX ? COMMENT_TOO_LONG : null),
  delivery: (value: CommitValues['delivery']) => (value === '' ? DELIVERY_REQUIRED : null),
};

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
