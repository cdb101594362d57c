import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useState } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import type { NewsItem } from '../../api/types';
import { Loaded } from '../../ui/Loaded';
import type { Load } from '../../ui/useLoads';
import classes from './NewsPage.module.css';
import { TelegramPost } from './TelegramPost';

export default function NewsPage({ news }: { news: Load<NewsItem[]> }) {
  const [offline, setOffline] = useState(false);
  const showOffline = useCallback(() => setOffline(true), []);

  return (
    <Stack className={classes.feed} gap="lg">
      <Title order={1}>Новости</Title>
      <Loaded
        load={news}
        pending={
          <Stack gap="lg" aria-busy="true" aria-label="Загрузка">
            <Skeleton height={160} radius="md" />
            <Skeleton height={160} radius="md" />
          </Stack>
        }
        what="Не удалось загрузить новости"
      >
        {(posts) => (
          <>
            {posts.length === 0 && <EmptyState text="Новостей пока нет" />}
            {posts.map((item) => (
              <TelegramPost
                key={item.data_telegram_post}
                post={item.data_telegram_post}
                onFallback={showOffline}
              />
            ))}
            {/* Below the posts: said once the widget has failed, it moves none of them. */}
            {offline && (
              <Text c="dimmed">
                Telegram сейчас не открывается на этой странице, поэтому посты канала показаны
                ссылками.
              </Text>
            )}
          </>
        )}
      </Loaded>
    </Stack>
  );
}
