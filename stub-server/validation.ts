// Request validation with DRF-style errors: `{field: [message]}` or `{non_field_errors: [...]}`.
// The texts of phone, comment and delivery are the spec's (§5), so the app can show them as is.
import type { Credentials, Delivery, FieldErrors, Product } from '../src/api/types.ts';
import { PHONE_INVALID, PHONE_REQUIRED, phoneError, validPhoneDigits } from '../src/lib/phone.ts';
import { badRequest } from './http.ts';
import { roundAmount } from './numbers.ts';

export const REQUIRED = PHONE_REQUIRED;
export const BAD_PHONE = PHONE_INVALID;
export const COMMENT_TOO_LONG = 'Максимальная длина 150';
export const BAD_DELIVERY = 'Выберите один из способов получения';
export const POLICY_REQUIRED = 'Необходимо согласиться с политикой конфиденциальности';
export const NOT_A_NUMBER = 'Требуется численное значение.';
export const NOT_A_BOOLEAN = 'Должно быть булевым значением.';
export const NOT_A_STRING = 'Недопустимая строка.';
export const SOLD_OUT = 'Товар закончился';
export const WHOLE_PIECES = 'Для штучного товара укажите целое число';
export const EMPTY_BASKET = 'В корзине нет доступных товаров';
export const BAD_CREDENTIALS = 'Невозможно войти с предоставленными учётными данными.';

/** Basket limit per product (spec §9). */
export const BASKET_MAX = 10;
export const DEFAULT_STEP = 0.1;
export const COMMENT_MAX = 150;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body of a POST/PUT must be a JSON object. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (isRecord(body)) return body;
  throw badRequest({ non_field_errors: ['Недопустимые данные. Ожидался объект JSON.'] });
}

const formatNumber = (value: number): string =>
  value.toLocaleString('ru-RU', { maximumFractionDigits: 6, useGrouping: false });

export const isPieces = (product: Pick<Product, 'unit'>): boolean =>
  product.unit.trim().toLowerCase() === 'шт';

export function stepOf(product: Pick<Product, 'unit' | 'unit_step'>): number {
  if (isPieces(product)) return 1;
  return product.unit_step && product.unit_step > 0 ? product.unit_step : DEFAULT_STEP;
}

/** The most one basket line may hold: the stock, at most 10 (spec §5). */
export function maxAmount(product: Pick<Product, 'rest'>): number {
  return Math.max(0, Math.min(product.rest, BASKET_MAX));
}

/** How far from a whole number of steps an amount may be: float noise, as in 0.1 + 0.2. */
const STEP_TOLERANCE = 1e-6;

/**
 * `{amount}` of PUT basket/{id}; answers the amount to store: 0 (the line goes), or a whole
 * number of the product's steps from one step up to the maximum.
 */
export function validateAmount(product: Product, body: unknown): number {
  const { amount } = objectBody(body);
  const fail = (message: string) => badRequest({ amount: [message] });
  if (amount === undefined || amount === null) throw fail(REQUIRED);
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw fail(NOT_A_NUMBER);
  // Checked on the amount as sent: a rounded -1e-9 or 1e-9 would pass for 0 and drop the line.
  if (amount < 0) throw fail('Убедитесь, что значение больше или равно 0.');
  if (amount === 0) return 0;
  if (!product.available || product.rest <= 0) throw fail(SOLD_OUT);
  const max = maxAmount(product);
  if (roundAmount(amount) > roundAmount(max))
    throw fail(`Убедитесь, что значение меньше или равно ${formatNumber(max)}.`);
  const step = stepOf(product);
  const steps = Math.round(amount / step);
  if (steps < 1 || Math.abs(amount / step - steps) > STEP_TOLERANCE) {
    throw fail(
      isPieces(product) ? WHOLE_PIECES : `Количество должно быть кратно ${formatNumber(step)}`,
    );
  }
  return roundAmount(steps * step);
}

export interface CommitFields {
  phone: string;
  comment: string;
  delivery: Delivery;
  send_accept: boolean;
}

/** The body of order_commit; all field errors at once, like a DRF serializer. */
export function validateCommit(body: unknown): CommitFields {
  const data = objectBody(body);
  const errors: FieldErrors = {};
  let phone = '';
  // The form's own rule (src/lib/phone.ts), so the two can never disagree.
  if (data.phone === undefined || data.phone === null) {
    errors.phone = [REQUIRED];
  } else if (typeof data.phone !== 'string') {
    errors.phone = [BAD_PHONE];
  } else {
    const error = phoneError(data.phone);
    if (error) errors.phone = [error];
    else phone = `+7${validPhoneDigits(data.phone)}`;
  }
  let comment = '';
  if (data.comment !== undefined && data.comment !== null) {
    if (typeof data.comment !== 'string') errors.comment = [NOT_A_STRING];
    else if (data.comment.length > COMMENT_MAX) errors.comment = [COMMENT_TOO_LONG];
    else comment = data.comment.trim();
  }
  // The string '1' or '2' and nothing else: not 1, not ['1'], which String() would turn into '1'.
  const delivery = data.delivery;
  if (delivery !== '1' && delivery !== '2') errors.delivery = [BAD_DELIVERY];
  if (data.policy_accept === undefined) errors.policy_accept = [REQUIRED];
  else if (typeof data.policy_accept !== 'boolean') errors.policy_accept = [NOT_A_BOOLEAN];
  else if (!data.policy_accept) errors.policy_accept = [POLICY_REQUIRED];
  if (data.send_accept !== undefined && typeof data.send_accept !== 'boolean')
    errors.send_accept = [NOT_A_BOOLEAN];
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return {
    phone,
    comment,
    delivery: delivery === '1' ? '1' : '2',
    send_accept: data.send_accept === true,
  };
}

/** The body of auth/token/. */
export function validateCredentials(body: unknown): Credentials {
  const data = objectBody(body);
  const errors: FieldErrors = {};
  for (const field of ['username', 'password'] as const) {
    const value = data[field];
    if (value === undefined || value === null || value === '') errors[field] = [REQUIRED];
    else if (typeof value !== 'string') errors[field] = [NOT_A_STRING];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return { username: String(data.username), password: String(data.password) };
}
