import { Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { Button } from './controls/Button';
import { paths } from '../lib/paths';

export const NOT_FOUND_TEXT = 'Страница не найдена';

/** An unknown path, or a -404 page of spec §8 (the server answers it 404: pageStatus). */
export function NotFound() {
  return (
    <Stack align="center" gap="md" py={60}>
      <Text fz={64} fw={700} c="berry" aria-hidden>
        404
      </Text>
      <Title order={1} ta="center">
        {NOT_FOUND_TEXT}
      </Title>
      <Button component={Link} href={paths.home()}>
        На главную
      </Button>
    </Stack>
  );
}
