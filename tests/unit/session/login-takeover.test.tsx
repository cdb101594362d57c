// The login form as the app takes the server's HTML over, with a shopper already typing in it:
// the field they are in stays the same element, keeps its text and keeps the focus. (It was once
// drawn anew at this moment, on a phone, and the rest of the typing went nowhere: issue 42.)
import { MantineProvider } from '@mantine/core';
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { theme } from '../../../src/app/theme';
import { LoginForm } from '../../../src/features/session/LoginForm';

function Form() {
  return (
    <MantineProvider theme={theme} withCssVariables={false}>
      <Router ssrPath="/login/">
        <LoginForm onSubmit={async () => {}} action="/login/" />
      </Router>
    </MantineProvider>
  );
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

describe('the login form taken over while the shopper types', () => {
  it.each(['username', 'password'])('keeps the %s field, its text and its focus', (name) => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Form />);
    document.body.append(container);
    const field = container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    field.focus();
    field.value = 'demo-b';

    act(() => {
      root = hydrateRoot(container, <Form />);
    });

    const now = container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    expect(now).toBe(field);
    expect(now.value).toBe('demo-b');
    expect(document.activeElement).toBe(field);
  });
});
