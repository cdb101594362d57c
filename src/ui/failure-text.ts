import type { FailureCase } from '../api/call-failure';

// What a shopper is told when a call to the shop's server failed, by its case (src/api/
// call-failure.ts): it could not be reached or did not answer in time, it answered with an
// error, or it answered in a way the shop cannot read. Never "no connection" for a server that
// answered: the shopper would look for a fault on their side, and so would the operator.

/** What happened: the second half of «Не удалось …: <this>.» */
export const FAILURE_CAUSE: Record<FailureCase, string> = {
  unreachable: 'сервер магазина не отвечает',
  error: 'сервер магазина ответил ошибкой',
  unreadable: 'сервер магазина прислал ответ, который не удалось прочитать',
};

/** What the shopper can do about it. */
export const FAILURE_ADVICE: Record<FailureCase, string> = {
  unreachable: 'Проверьте соединение и попробуйте ещё раз.',
  error: 'Попробуйте ещё раз чуть позже.',
  unreadable: 'Попробуйте ещё раз чуть позже.',
};

/** «Не удалось загрузить заказы: сервер магазина ответил ошибкой. Попробуйте ещё раз чуть позже.» */
export function failureText(
  what: string,
  failure: FailureCase,
  advice: string = FAILURE_ADVICE[failure],
): string {
  return `${what}: ${FAILURE_CAUSE[failure]}. ${advice}`;
}
