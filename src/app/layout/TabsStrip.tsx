import { Container, Group } from '@mantine/core';
import { IconBrandTelegram, IconMessageCircle } from '@tabler/icons-react';
import { MANAGER_CHAT_URL, NEWS_CHANNEL_URL } from '../../lib/shop-info';
import classes from './Layout.module.css';

export function TabsStrip() {
  return (
    <nav className={classes.tabs} aria-label="Новости и связь">
      <Container size="lg">
        <Group gap="lg">
          <a
            className={classes.tab}
            href={NEWS_CHANNEL_URL}
            target="_blank"
            rel="noopener noreferrer"
          >
            <IconBrandTelegram size={16} aria-hidden />
            Наш канал
          </a>
          <a
            className={classes.tab}
            href={MANAGER_CHAT_URL}
            target="_blank"
            rel="noopener noreferrer"
          >
            <IconMessageCircle size={16} aria-hidden />
            Связаться с нами
          </a>
        </Group>
      </Container>
    </nav>
  );
}
