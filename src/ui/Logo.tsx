import { Group, Text } from '@mantine/core';
import { STORE_NAME } from '../lib/shop-info';
import classes from './Logo.module.css';

/** A raspberry mark and the store name. */
export function Logo({ withName = true }: { withName?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <span className={classes.mark} aria-hidden="true" />
      {withName && (
        <Text className={classes.name} fw={700} c="var(--mantine-color-text)">
          {STORE_NAME}
        </Text>
      )}
    </Group>
  );
}
