import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useState } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { useRouteData } from '../../ui/route';
import { newsRoute } from './news-route';
import classes from './NewsPage.module.css';
import { TelegramPost } from './TelegramPost';

export default function NewsPage() {
  const { news } = useRouteData(newsRoute);
  const [offline, setOffline] = useState(false);
  const showOffline = useCallback(() => setOffline(true), []);

  return (
    <Stack className={classes.feed} gap="lg">
      <Title order={1}>Новости</Title>
      {news.status === 'loading' && (
        <Stack gap="lg" aria-busy="true" aria-label="Загрузка">
          <Skeleton height={160} radius="md" />
          <Skeleton height={160} radius="md" />
        </Stack>
      )}
      {news.status === 'error' && (
        <ErrorState
          what="Не удалось загрузить новости"
          failure={news.failure}
          onRetry={news.reload}
        />
      )}
      {news.status === 'done' && news.data.length === 0 && <EmptyState text="Новостей пока нет" />}
      {news.status === 'done' &&
        news.data.map((item) => (
          <TelegramPost
            key={item.data_telegram_post}
            post={item.data_telegram_post}
            onFallback={showOffline}
          />
        ))}
      {/* Below the posts: said once the widget has failed, it moves none of them. */}
      {news.status === 'done' && offline && (
        <Text c="dimmed">
          Telegram сейчас не открывается на этой странице, поэтому посты канала показаны ссылками.
        </Text>
      )}
    </Stack>
  );
}
