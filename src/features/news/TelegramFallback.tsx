import '@mantine/core/styles/ThemeIcon.css';
import { Button, Card, Group, Text, ThemeIcon } from '@mantine/core';
import { IconBrandTelegram, IconExternalLink } from '@tabler/icons-react';
import { postUrl } from './telegram';

/** Shown instead of a post whose widget could not load: a link to the post on Telegram. */
export function TelegramFallback({ post }: { post: string }) {
  const channel = post.split('/')[0] ?? post;
  return (
    <Card withBorder radius="md" padding="md">
      <Group wrap="nowrap" gap="md" align="flex-start">
        <ThemeIcon size={40} radius="xl" variant="light" color="blue" aria-hidden>
          <IconBrandTelegram size={22} />
        </ThemeIcon>
        <div>
          <Text fw={500}>Пост в канале @{channel}</Text>
          <Text size="sm" c="dimmed" mb="sm">
            Не удалось показать пост здесь. Его можно прочитать в Telegram.
          </Text>
          <Button
            component="a"
            href={postUrl(post)}
            target="_blank"
            rel="noopener noreferrer"
            variant="light"
            size="sm"
            rightSection={<IconExternalLink size={16} aria-hidden />}
          >
            Открыть в Telegram
          </Button>
        </div>
      </Group>
    </Card>
  );
}
