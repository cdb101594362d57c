import { Stack, Text, Title } from '@mantine/core';
import { Link, type SsrContext, useRouter } from 'wouter';
import { Button } from './controls/Button';
import { paths } from '../lib/paths';

export const NOT_FOUND_TEXT = 'Страница не найдена';

/** On the server: the answer's status (an unknown path, or a -404 page of spec §8). */
function answerNotFound(context: SsrContext | undefined): void {
  if (context) context.statusCode = 404;
}

export function NotFound() {
  answerNotFound(useRouter().ssrContext);
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
