import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi, csrfTokenFromPage } from '../../../src/api/http';
import { setToken } from '../../../src/api/token';
import type { User } from '../../../src/api/types';
import LoginPage from '../../../src/features/session/LoginPage';
import { handleUnauthorized, session } from '../../../src/features/session/store';
import { renderAt } from '../render';
import { stubFetch, type StubbedCall } from './fetch-stub';

const anna: User = {
  id: 1,
  username: 'demo',
  first_name: 'Анна',
  last_name: 'Смирнова',
  email: 'demo@example.com',
};

/** The stub's demo account: demo / berries2026 gets token `t-new`; `t-old` is revoked. */
function demoBackend({
  tokenStatus = 200,
  wrongStatus = 400,
}: { tokenStatus?: number; wrongStatus?: 400 | 401 } = {}) {
  return stubFetch((call: StubbedCall) => {
    if (call.authorization && call.authorization !== 'Token t-new') {
      return { status: 401, body: { detail: 'Недопустимый токен.' } };
    }
    if (call.method === 'POST' && call.path === '/api/auth/token/') {
      if (tokenStatus !== 200) return { status: tokenStatus, body: {} };
      const { username, password } = call.body as { username: string; password: string };
      return username === 'demo' && password === 'berries2026'
        ? { status: 200, body: { token: 't-new' } }
        : wrongStatus === 401
          ? { status: 401, body: { detail: 'Неверный логин или пароль.' } }
          : {
              status: 400,
              body: { non_field_errors: ['Невозможно войти с предоставленными учётными данными.'] },
            };
    }
    if (call.path === '/api/auth/user/me/') return { status: 200, body: anna };
    return { status: 404, body: { detail: 'Страница не найдена.' } };
  });
}

function fillAndSubmit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText(/Логин/), { target: { value: username } });
  fireEvent.change(screen.getByLabelText(/Пароль/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Войти' }));
}

beforeEach(() => {
  configureApi({
    baseURL: '/api',
    csrfToken: csrfTokenFromPage,
    onUnauthorized: handleUnauthorized,
  });
  window.history.replaceState(null, '', '/login/');
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
});
afterEach(() => {
  vi.unstubAllGlobals();
  // The token module keeps a copy in memory besides localStorage (which setup.ts clears).
  setToken(null);
  session.token = null;
  session.user = null;
});

describe('the login page', () => {
  it('shows the login and password fields', () => {
    demoBackend();
    renderAt(<LoginPage />, '/login/');
    expect(screen.getByRole('heading', { name: 'Вход' })).toBeTruthy();
    expect(screen.getByLabelText(/Логин/).getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText(/Пароль/).getAttribute('type')).toBe('password');
  });

  it('logs in: stores the token under jwt, loads the user and goes to next_page', async () => {
    const calls = demoBackend();
    const { location } = renderAt(<LoginPage />, '/login/?next_page=%2Forder_status');
    fillAndSubmit('demo', 'berries2026');

    await waitFor(() => expect(location.history?.at(-1)).toBe('/order_status'));
    expect(localStorage.getItem('jwt')).toBe('t-new');
    expect(session.token).toBe('t-new');
    expect(session.user?.first_name).toBe('Анна');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/auth/token/',
      body: { username: 'demo', password: 'berries2026' },
    });
    expect(calls[1]).toMatchObject({ path: '/api/auth/user/me/', authorization: 'Token t-new' });
  });

  it('goes to / when there is no next_page', async () => {
    demoBackend();
    const { location } = renderAt(<LoginPage />, '/login/');
    fillAndSubmit('demo', 'berries2026');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/'));
  });

  it.each(['//evil.example', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'ignores the foreign next_page %j and goes to /',
    async (nextPage) => {
      demoBackend();
      const { location } = renderAt(
        <LoginPage />,
        `/login/?next_page=${encodeURIComponent(nextPage)}`,
      );
      fillAndSubmit('demo', 'berries2026');
      await waitFor(() => expect(session.token).toBe('t-new'));
      await waitFor(() => expect(location.history?.at(-1)).toBe('/'));
    },
  );

  it.each([400, 401] as const)(
    'shows Неверный логин или пароль for wrong credentials answered %i, sending them once',
    async (wrongStatus) => {
      const calls = demoBackend({ wrongStatus });
      const { location } = renderAt(<LoginPage />, '/login/?next_page=%2Forder_status');
      fillAndSubmit('demo', 'wrong');

      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe('Неверный логин или пароль');
      expect(calls).toHaveLength(1);
      expect(location.history).toEqual(['/login/?next_page=%2Forder_status']);
      expect(window.location.pathname).toBe('/login/');
      expect(localStorage.getItem('jwt')).toBeNull();
      expect((screen.getByLabelText(/Логин/) as HTMLInputElement).value).toBe('demo');
    },
  );

  it.each([
    ['a server error', 500],
    ['a network error', 0],
  ])('shows a different message on %s and keeps what was typed', async (_what, status) => {
    if (status === 0) stubFetch(() => 'network-error');
    else demoBackend({ tokenStatus: status });
    renderAt(<LoginPage />, '/login/');
    fillAndSubmit('demo', 'berries2026');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Не удалось войти');
    expect(alert.textContent).not.toContain('Неверный логин или пароль');
    expect((screen.getByLabelText(/Логин/) as HTMLInputElement).value).toBe('demo');
    expect((screen.getByLabelText(/Пароль/) as HTMLInputElement).value).toBe('berries2026');
  });

  it('asks for both fields before calling the backend', async () => {
    const calls = demoBackend();
    renderAt(<LoginPage />, '/login/');
    fireEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByText('Введите логин')).toBeTruthy();
    expect(screen.getByText('Введите пароль')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('logs in even when a revoked token is still stored (DRF answers 401 to it)', async () => {
    localStorage.setItem('jwt', 't-old');
    session.token = 't-old';
    const calls = demoBackend();
    const { location } = renderAt(<LoginPage />, '/login/?next_page=%2Forder_status');
    fillAndSubmit('demo', 'berries2026');

    await waitFor(() => expect(location.history?.at(-1)).toBe('/order_status'));
    expect(localStorage.getItem('jwt')).toBe('t-new');
    expect(calls.map((c) => c.authorization)).toEqual(['Token t-old', null, 'Token t-new']);
    // Already on /login/: the 401 of the stale token must not redirect anywhere.
    expect(window.location.pathname).toBe('/login/');
  });
});
