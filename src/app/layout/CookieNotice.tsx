import { Group, Paper, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { BackField } from '../../ui/BackField';
import { Button } from '../../ui/controls/Button';
import { COOKIES } from '../../lib/cookie-table';
import { readCookie, writeCookie } from '../../lib/cookies';
import classes from './Layout.module.css';
import { useOnPage } from './useOnPage';
import { paths } from '../../lib/paths';

/** The shop's server handles the form before the app's code arrives, and without it. */
const CONSENT_ACTION = '/cookie-consent';

/**
 * `initiallyAccepted` is what the server read from the request's cookie, so the first render in
 * the browser matches the server's HTML; without it, the browser's cookie is read.
 */
export function CookieNotice({ initiallyAccepted }: { initiallyAccepted?: boolean }) {
  const onPolicy = useOnPage([paths.policy.pattern]);
  const [accepted, setAccepted] = useState(
    () => initiallyAccepted ?? readCookie(COOKIES.cookieAccepted.name) === 'true',
  );
  if (accepted || onPolicy) return null;

  // Once the app runs it accepts here, with no reload; before that (or without JavaScript) the
  // browser posts the form and the server sets the cookie and sends it back to this page.
  const accept = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    writeCookie(COOKIES.cookieAccepted, 'true');
    setAccepted(true);
  };

  return (
    <Paper
      className={classes.cookie}
      shadow="lg"
      p="md"
      withBorder
      role="region"
      aria-label="Уведомление о cookie"
    >
      <Text size="sm" mb="sm">
        Мы используем файлы cookie, чтобы сайт работал удобнее. Продолжая пользоваться сайтом, вы
        соглашаетесь с использованием файлов cookie.
      </Text>
      <form method="post" action={CONSENT_ACTION} onSubmit={accept}>
        <BackField />
        <Group gap="sm" justify="flex-end">
          <Button
            component="a"
            href={paths.policy()}
            target="_blank"
            rel="noopener"
            variant="default"
          >
            Подробнее
          </Button>
          <Button type="submit">Продолжить</Button>
        </Group>
      </form>
    </Paper>
  );
}
