import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A friendly empty screen: the spec's text and, where it helps, a way on. */
export function EmptyState({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <Stack align="center" gap="md" py="xl">
      <Text size="lg" ta="center">
        {text}
      </Text>
      {action}
    </Stack>
  );
}
