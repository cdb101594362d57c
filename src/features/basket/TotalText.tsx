import { Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { formatRub } from '../../lib/money';
import { Button } from '../../ui/controls/Button';
import { useBasketStore } from './store';
import classes from './TotalText.module.css';

export const TOTAL_FAILED_TEXT = 'Не удалось получить сумму';

/**
 * The basket total in large type, or, when total_price failed, a note and `Повторить` instead:
 * the last known sum may be out of date, and a wrong sum at checkout is worse than none.
 */
export function TotalText({
  total,
  failed,
  testId,
}: {
  total: number;
  failed: boolean;
  testId: string;
}) {
  const { refreshTotal } = useBasketStore();
  if (failed) {
    return (
      <Group gap="xs" wrap="wrap" data-testid={testId}>
        <Text className={classes.failed} fw={500} size="sm">
          {TOTAL_FAILED_TEXT}
        </Text>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={() => void refreshTotal()}
        >
          Повторить
        </Button>
      </Group>
    );
  }
  return (
    <Text fw={700} fz="xl" data-testid={testId}>
      {formatRub(total)}
    </Text>
  );
}
