import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import type { FailureCase } from '../api/call-failure';
import { Button } from './controls/Button';
import classes from './ErrorState.module.css';
import { failureText } from './failure-text';
import { MessageBox } from './MessageBox';

type ErrorStateProps = { onRetry: () => void } & (
  | { message: string }
  /** A failed call: what could not be done, and why as its case says (ui/failure-text.ts). */
  | { failure: FailureCase; what?: string }
);

/** What a failed load says, unless the page says what it could not load. */
const LOAD_FAILED = 'Не удалось загрузить данные';

/** A failed load: a Russian message and a `Повторить` button that tries again. */
export function ErrorState(props: ErrorStateProps) {
  const { onRetry } = props;
  const message =
    'message' in props ? props.message : failureText(props.what ?? LOAD_FAILED, props.failure);
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
