import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { Button } from './controls/Button';

// Mantine's notifications, loaded with the first notice (src/ui/notify.ts): most visits show none.

/** A short Russian message about something that failed; the screen itself stays as it was. */
export function notifyError(message: string): void {
  notifications.show({ color: 'red', title: 'Что-то пошло не так', message, autoClose: 6000 });
}

/**
 * A failure of something that has no place of its own on the screen (e.g. the basket loaded at
 * start-up): a Russian message with `Повторить` that stays until the shopper retries or closes
 * it. One notice per `id`: a second failure replaces the first instead of stacking.
 */
export function showRetryNotice(id: string, message: string, onRetry: () => void): void {
  notifications.hide(id);
  notifications.show({
    id,
    color: 'red',
    title: 'Что-то пошло не так',
    autoClose: false,
    message: (
      <>
        {message}
        <div>
          <Button
            style={{ marginTop: 'var(--mantine-spacing-xs)' }}
            size="compact-sm"
            variant="default"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={() => {
              notifications.hide(id);
              onRetry();
            }}
          >
            Повторить
          </Button>
        </div>
      </>
    ),
  });
}

export function hideRetryNotice(id: string): void {
  notifications.hide(id);
}
