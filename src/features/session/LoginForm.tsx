import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { isNotEmpty, useForm } from '@mantine/form';
import { IconAlertTriangle, IconLogin2 } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { MessageBox } from '../../ui/MessageBox';
import type { Credentials } from '../../api/types';
import { useTypedBeforeHydration } from '../../ui/hydration';
import { loginErrorMessage } from './login-error';

interface LoginFormProps {
  /** Logs in; a rejection is shown as a message, with what was typed kept in the fields. */
  onSubmit: (credentials: Credentials) => Promise<void>;
}

export function LoginForm({ onSubmit }: LoginFormProps) {
  const [error, setError] = useState<string | null>(null);
  const [passwordShown, setPasswordShown] = useState(false);
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: {
      username: isNotEmpty('Введите логин'),
      password: isNotEmpty('Введите пароль'),
    },
  });

  // The server's form takes keys before the app's code arrives: what was typed there is what
  // the app logs in with (without this, Enter said «Введите логин» under a filled-in field).
  const usernameField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(usernameField, '', (typed) => form.setFieldValue('username', typed));
  useTypedBeforeHydration(passwordField, '', (typed) => form.setFieldValue('password', typed));

  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await onSubmit({ username: values.username.trim(), password: values.password });
    } catch (failure) {
      setError(loginErrorMessage(failure));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Вход">
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
          }}
          autoComplete="current-password"
          required
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
