import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

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
    <Alert
      color="red"
      variant="light"
      title="Произошла ошибка"
      icon={<IconAlertTriangle aria-hidden />}
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
    </Alert>
  );
}
