// The login form as the app takes the server's HTML over, with a shopper already typing in it:
// the field they are in stays the same element, keeps its text and keeps the focus. (It was once
// drawn anew at this moment, on a phone, and the rest of the typing went nowhere: issue 42.)
import { MantineProvider } from '@mantine/core';
import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { theme } from '../../../src/app/theme';
import { LoginForm } from '../../../src/features/session/LoginForm';
import { hydrate, serverHtml } from '../hydrate';

function Form() {
  return (
    <MantineProvider theme={theme} withCssVariables={false}>
      <Router ssrPath="/login/">
        <LoginForm onSubmit={async () => {}} action="/login/" />
      </Router>
    </MantineProvider>
  );
}

describe('the login form taken over while the shopper types', () => {
  it.each(['username', 'password'])('keeps the %s field, its text and its focus', (name) => {
    const container = serverHtml(<Form />);
    const field = container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    field.focus();
    field.value = 'demo-b';

    act(() => hydrate(container, <Form />));

    const now = container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    expect(now).toBe(field);
    expect(now.value).toBe('demo-b');
    expect(document.activeElement).toBe(field);
  });
});
