import { Paper, Text, Title } from '@mantine/core';
import { useLocation, useSearch, useSearchParams } from 'wouter';
import type { Credentials } from '../../api/types';
import { LoginForm } from './LoginForm';
import classes from './LoginPage.module.css';
import { safeNextPage } from './safe-next-page';
import { logIn } from './log-in';

// The spec only names /login/ as the 401 target; a small form keeps the shopper from a blank page.
export default function LoginPage() {
  const [path, navigate] = useLocation();
  const search = useSearch();
  const [params] = useSearchParams();
  const nextPage = safeNextPage(params.get('next_page'));

  const submit = async (credentials: Credentials) => {
    await logIn(credentials);
    // Replace: Back from the page the shopper returns to should not reopen the login form.
    navigate(nextPage, { replace: true });
  };

  return (
    <Paper className={classes.card} withBorder radius="md" p="lg">
      <Title order={1} size="h2" mb="xs">
        Вход
      </Title>
      <Text c="dimmed" size="sm" mb="lg">
        Введите логин и пароль от аккаунта магазина.
      </Text>
      <LoginForm onSubmit={submit} action={search ? `${path}?${search}` : path} />
    </Paper>
  );
}
