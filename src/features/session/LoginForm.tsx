import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { isNotEmpty, useForm } from '@mantine/form';
import { IconAlertTriangle, IconLogin2 } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Button } from '../../ui/controls/Button';
import { MessageBox } from '../../ui/MessageBox';
import type { Credentials } from '../../api/types';
import { useHydrated, useTypedBeforeHydration } from '../../ui/hydration';
import { usePageData } from '../../ui/page-data';
import { loginErrorMessage, PASSWORD_REQUIRED, USERNAME_REQUIRED } from './login-error';

interface LoginFormProps {
  /** Logs in; a rejection is shown as a message, with what was typed kept in the fields. */
  onSubmit: (credentials: Credentials) => Promise<void>;
  /** Where the form posts without the app: this page, with its next_page. */
  action: string;
}

export function LoginForm({ onSubmit, action }: LoginFormProps) {
  // A login posted without the app and refused comes back with the login kept (the page shows
  // the server's message on top, as for any form).
  const posted = usePageData()?.outcome;
  const [error, setError] = useState<string | null>(null);
  const [passwordShown, setPasswordShown] = useState(false);
  // Showing the password's characters is the app's work: until it runs (and without JavaScript)
  // the eye button would do nothing, so it keeps its place but does not show.
  const hydrated = useHydrated();
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { username: posted?.values?.username ?? '', password: '' },
    initialErrors: posted?.errors ?? {},
    validate: {
      username: isNotEmpty(USERNAME_REQUIRED),
      password: isNotEmpty(PASSWORD_REQUIRED),
    },
  });
  const retry = posted?.values !== undefined;

  // The server's form takes keys before the app's code arrives: what was typed there is what
  // the app logs in with (without this, Enter said «Введите логин» under a filled-in field).
  // Only the form's value: by default an uncontrolled form draws the field anew (a new key), and
  // the shopper still typing in it would lose the focus and the rest of their keys.
  const usernameField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(usernameField, form.getValues().username, (typed) =>
    form.setFieldValue('username', typed, { forceUpdate: false }),
  );
  useTypedBeforeHydration(passwordField, '', (typed) =>
    form.setFieldValue('password', typed, { forceUpdate: false }),
  );

  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await onSubmit({ username: values.username.trim(), password: values.password });
    } catch (failure) {
      setError(loginErrorMessage(failure));
    }
  });

  return (
    <form method="post" action={action} onSubmit={submit} noValidate aria-label="Вход">
      <Stack gap="md">
        {error && (
          <MessageBox color="red" icon={<IconAlertTriangle size={20} aria-hidden />} role="alert">
            {error}
          </MessageBox>
        )}
        <TextInput
          label="Логин"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          name="username"
          autoFocus={retry && !posted?.values?.username}
          ref={usernameField}
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label="Пароль"
          // Mantine names the eye button in English; controlled here to say what it will do.
          // Not «…пароль»: the field's label is «Пароль», and a search by it must find one thing.
          visible={passwordShown}
          onVisibilityChange={setPasswordShown}
          visibilityToggleButtonProps={{
            'aria-label': passwordShown ? 'Скрыть символы' : 'Показать символы',
            style: hydrated ? undefined : { visibility: 'hidden' },
          }}
          autoComplete="current-password"
          required
          name="password"
          autoFocus={retry && Boolean(posted?.values?.username)}
          ref={passwordField}
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Button
          type="submit"
          loading={form.submitting}
          leftSection={<IconLogin2 size={18} aria-hidden />}
        >
          Войти
        </Button>
      </Stack>
    </form>
  );
}
