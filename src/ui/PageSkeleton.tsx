import { Skeleton, Stack } from '@mantine/core';

/** Shown while a page's code loads: the rough shape of a title and content, no layout jump. */
export function PageSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Загрузка">
      <Skeleton height={16} width={180} />
      <Skeleton height={34} width="60%" />
      <Skeleton height={240} />
    </Stack>
  );
}
