import { Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import { MESSENGER_URL, SOCIAL_URL, STORE_NAME } from '../../lib/shop-info';
import classes from './Layout.module.css';
import { ThemeToggle } from './ThemeToggle';
import { paths } from '../../lib/paths';

export function Footer() {
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Stack gap="sm">
          {/* Links inside a sentence are underlined: colour alone does not set them apart. */}
          <Text size="sm">
            Чтобы сделать заказ или задать вопрос, напишите продавцу во{' '}
            <Anchor href={SOCIAL_URL} target="_blank" rel="noopener noreferrer" underline="always">
              ВКонтакте
            </Anchor>{' '}
            или в{' '}
            <Anchor
              href={MESSENGER_URL}
              target="_blank"
              rel="noopener noreferrer"
              underline="always"
            >
              Telegram
            </Anchor>
            .
          </Text>
          <Group justify="space-between" align="center">
            <Group gap="md">
              <Anchor component={Link} href={paths.policy()} size="sm">
                Политика конфиденциальности
              </Anchor>
              {/* A full page load: only the news page's policy lets Telegram's widget in. */}
              <Anchor href={paths.news()} size="sm">
                Новости
              </Anchor>
            </Group>
            <ThemeToggle />
          </Group>
          <Text size="xs" c="dimmed">
            © {STORE_NAME}
          </Text>
        </Stack>
      </Container>
    </footer>
  );
}
