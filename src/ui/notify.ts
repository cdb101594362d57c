import { notifications } from '@mantine/notifications';

/** A short Russian message about something that failed; the screen itself stays as it was. */
export function notifyError(message: string): void {
  notifications.show({ color: 'red', title: 'Что-то пошло не так', message, autoClose: 6000 });
}
