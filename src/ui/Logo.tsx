import { Group, Text } from '@mantine/core';
import { STORE_NAME } from '../lib/shop-info';
import classes from './Logo.module.css';

/** A raspberry mark and the store name. */
export function Logo({ withName = true }: { withName?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
        <path d="M16 7c-2-4-6-5-9-4 2 3 5 4 9 4Zm0 0c2-4 6-5 9-4-2 3-5 4-9 4Z" fill="#2f9e44" />
        <g fill="#c92a62">
          <circle cx="11" cy="13" r="4" />
          <circle cx="21" cy="13" r="4" />
          <circle cx="16" cy="12" r="4" />
          <circle cx="9.5" cy="19" r="4" />
          <circle cx="16" cy="19" r="4" />
          <circle cx="22.5" cy="19" r="4" />
          <circle cx="13" cy="25" r="4" />
          <circle cx="19" cy="25" r="4" />
        </g>
        <g fill="#fff" opacity=".45">
          <circle cx="10" cy="12" r="1" />
          <circle cx="15" cy="11" r="1" />
          <circle cx="20" cy="12" r="1" />
          <circle cx="15" cy="18" r="1" />
        </g>
      </svg>
      {withName && (
        <Text className={classes.name} fw={700} c="var(--mantine-color-text)">
          {STORE_NAME}
        </Text>
      )}
    </Group>
  );
}
