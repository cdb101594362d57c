import { Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
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
          mt="sm"
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={onRetry}
        >
          Повторить
        </Button>
      </div>
    </MessageBox>
  );
}
