import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { Button } from './controls/Button';
import classes from './ErrorState.module.css';
import { MessageBox } from './MessageBox';

interface ErrorStateProps {
  message?: string;
  onRetry: () => void;
}

/** A failed load: a Russian message and a `Повторить` button that tries again. */
export function ErrorState({
  message = 'Не удалось загрузить данные. Проверьте соединение и попробуйте ещё раз.',
  onRetry,
}: ErrorStateProps) {
  // A link to this very page (an empty href is the page's own address, query and all): before
  // the app runs, and without JavaScript, asking for the page again is the retry, and the server
  // tries the backend anew. Once the app runs it loads again in place.
  const retry = (event: MouseEvent) => {
    event.preventDefault();
    onRetry();
  };
  return (
    <MessageBox
      color="red"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title="Произошла ошибка"
      role="alert"
    >
      {message}
      <div>
        <Button
          component="a"
          href=""
          role="button"
          variant="default"
          className={classes.retry}
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={retry}
        >
          Повторить
        </Button>
      </div>
    </MessageBox>
  );
}
