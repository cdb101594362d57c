import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { ButtonContent } from './ButtonContent';
import looks from './ControlLooks.module.css';
import { BUTTON, BUTTON_ACTIVE } from './mantine-looks';
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
        {/* Mantine's default Button, drawn by a plain link (mantine-looks.ts): the home page
            holds this state's code, and the component's would come with it. */}
        <a
          href=""
          role="button"
          className={`${BUTTON} ${BUTTON_ACTIVE} ${looks.buttonDefault} ${looks.retry}`}
          data-with-left-section
          onClick={retry}
        >
          <ButtonContent icon={<IconRefresh size={16} aria-hidden />}>Повторить</ButtonContent>
        </a>
      </div>
    </MessageBox>
  );
}
