import '@mantine/core/styles/ThemeIcon.css';
import { Card, Group, Text, ThemeIcon } from '@mantine/core';
import { IconBrandTelegram, IconExternalLink } from '@tabler/icons-react';
import { Button } from '../../ui/controls/Button';
import { describePost, postUrl } from './telegram';

/** Shown instead of a post whose widget could not load: a link to the post on Telegram. */
export function TelegramFallback({ post }: { post: string }) {
  const { channel, number } = describePost(post);
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" gap="sm">
        <Group wrap="nowrap" gap="sm">
          <ThemeIcon size={40} radius="xl" variant="light" color="blue" aria-hidden>
            <IconBrandTelegram size={22} />
          </ThemeIcon>
          <div>
            <Text fw={500}>{number ? `Пост №\u00a0${number}` : 'Пост'}</Text>
            <Text size="sm" c="dimmed">
              Канал @{channel}
            </Text>
          </div>
        </Group>
        <Button
          component="a"
          href={postUrl(post)}
          target="_blank"
          rel="noopener noreferrer"
          variant="light"
          rightSection={<IconExternalLink size={16} aria-hidden />}
        >
          Открыть в Telegram
        </Button>
      </Group>
    </Card>
  );
}
