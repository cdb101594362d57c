import { errorStatus } from '../../api/http';

export const WRONG_CREDENTIALS = 'Неверный логин или пароль';
export const LOGIN_UNAVAILABLE =
  'Не удалось войти: сервер не отвечает. Проверьте соединение и попробуйте ещё раз.';

/** The message for a failed login: DRF answers 400 for wrong credentials, anything else is ours. */
export function loginErrorMessage(error: unknown): string {
  return errorStatus(error) === 400 ? WRONG_CREDENTIALS : LOGIN_UNAVAILABLE;
}
