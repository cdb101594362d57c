// One checkout attempt, one order, whichever instance of the shop takes it (contracts/README.md,
// "One order per checkout"). An attempt is the form as the shopper sends it until an order is
// placed or the backend refuses the order as invalid (400): a double click, a retry after a
// network failure, a stall or a server error, and the same form posted to two instances all
// carry one key, and the backend answers them all with the first answer. After a refusal the
// shopper changes the form: that is a new attempt, with a new key.
import { type Api, errorStatus, http } from '../../api/http';
import { commitOrder } from '../../api/orders';
import type { OrderCommit, OrderCommitResult } from '../../api/types';

/** The form's hidden field that carries the key, so a form posted without the app has it too. */
export const ATTEMPT_FIELD = 'idempotency_key';

/** The backend is still placing the order of this attempt (409): the shopper waits. */
export const ORDER_IN_PROGRESS = 'Заказ уже оформляется, подождите несколько секунд…';
/** Still 409 after the wait: the first request is slow; sending again would repeat the wait. */
export const ORDER_STILL_IN_PROGRESS =
  'Заказ всё ещё оформляется. Загляните в раздел «Заказы» через минуту: всё, что вы ввели, сохранено.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key as this shop makes them; anything else posted in the field is replaced. */
export const isAttemptKey = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

/**
 * A random version 4 UUID. crypto.randomUUID exists only in secure contexts (HTTPS and
 * localhost); getRandomValues exists everywhere, so a shop tried over plain HTTP on a LAN
 * address still gets random keys.
 */
export function newAttemptKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How long to wait between asks while the first request of the attempt is in flight. */
const IN_FLIGHT_PAUSE_MS = 500;
/** How many times to ask again (about 10 s): a placed order takes well under a second. */
const IN_FLIGHT_ASKS = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the attempt's order; while the backend answers 409 (its first request is still being
 * placed) it waits and asks again, and gets the first request's answer once that is done.
 * `onWaiting` runs at the first 409. Still 409 after the wait: the 409 is thrown.
 */
export async function commitAttempt(
  order: OrderCommit,
  key: string,
  { api = http, onWaiting }: { api?: Api; onWaiting?: () => void } = {},
): Promise<OrderCommitResult> {
  for (let asked = 0; ; asked += 1) {
    try {
      return await commitOrder(order, key, api);
    } catch (error) {
      if (errorStatus(error) !== 409 || asked >= IN_FLIGHT_ASKS) throw error;
      if (asked === 0) onWaiting?.();
      await pause(IN_FLIGHT_PAUSE_MS);
    }
  }
}

/** Whether the backend refused the order itself (400): the next send is a new attempt. */
export const refusedAsInvalid = (error: unknown): boolean => errorStatus(error) === 400;
