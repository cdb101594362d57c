import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getBasket } from '../../../src/api/basket';
import { configureApi, csrfTokenFromPage } from '../../../src/api/http';
import { MainMenu } from '../../../src/app/layout/MainMenu';
import { handleUnauthorized, loadUser, session, signIn } from '../../../src/features/session/store';
import { renderAt } from '../render';
import { stubFetch } from './fetch-stub';

const anna = {
  id: 1,
  username: 'demo',
  first_name: 'Анна',
  last_name: 'Смирнова',
  email: 'demo@example.com',
};

beforeEach(() => {
  configureApi({
    baseURL: '/api',
    csrfToken: csrfTokenFromPage,
    onUnauthorized: handleUnauthorized,
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  session.token = null;
  session.user = null;
  window.history.replaceState(null, '', '/');
});

describe('the user', () => {
  it('is loaded from auth/user/me/ with the stored token', async () => {
    const calls = stubFetch(() => ({ status: 200, body: anna }));
    signIn('t-1');
    await loadUser();
    expect(session.user).toEqual(anna);
    expect(calls).toEqual([
      expect.objectContaining({ path: '/api/auth/user/me/', authorization: 'Token t-1' }),
    ]);
  });

  it('is not asked for without a token', async () => {
    const calls = stubFetch(() => ({ status: 200, body: anna }));
    await loadUser();
    expect(calls).toHaveLength(0);
    expect(session.user).toBeNull();
  });
});

describe('the menu of a logged-in shopper', () => {
  it('shows who is logged in and Выйти, which clears token and user and goes to /', async () => {
    window.history.replaceState(null, '', '/order_status');
    signIn('t-1');
    session.user = anna;
    renderAt(<MainMenu />, '/order_status');

    const logoutItem = await screen.findByRole('menuitem', { name: /Выйти/, hidden: true });
    expect(screen.getByText('Анна Смирнова')).toBeTruthy();
    fireEvent.click(logoutItem);

    expect(localStorage.getItem('jwt')).toBeNull();
    expect(session.token).toBeNull();
    expect(session.user).toBeNull();
    expect(window.location.pathname).toBe('/');
  });

  it('still has Выйти when user/me failed with a 500: the token is kept, and so is the way out', async () => {
    stubFetch(() => ({ status: 500, body: { detail: 'Ошибка сервера.' } }));
    signIn('t-1');
    await loadUser();
    expect(session.token).toBe('t-1');
    renderAt(<MainMenu />, '/order_status');

    const logoutItem = await screen.findByRole('menuitem', { name: /Выйти/, hidden: true });
    expect(screen.getByText('Вы вошли')).toBeTruthy();
    fireEvent.click(logoutItem);
    expect(session.token).toBeNull();
    expect(localStorage.getItem('jwt')).toBeNull();
  });

  it('has no Выйти for a visitor who is not logged in', async () => {
    renderAt(<MainMenu />);
    await screen.findByRole('menuitem', { name: /Заказы/, hidden: true });
    expect(screen.queryByRole('menuitem', { name: /Выйти/, hidden: true })).toBeNull();
  });
});

describe('a 401 on any call', () => {
  it('logs out and goes to /login/ with the current path and query as next_page', async () => {
    stubFetch(() => ({ status: 401, body: { detail: 'Недопустимый токен.' } }));
    window.history.replaceState(null, '', '/search?q=малина');
    signIn('t-revoked');
    session.user = anna;

    await expect(getBasket()).rejects.toThrow();

    expect(localStorage.getItem('jwt')).toBeNull();
    expect(session.token).toBeNull();
    expect(session.user).toBeNull();
    expect(window.location.pathname).toBe('/login/');
    // The browser keeps the query percent-encoded; it is the same address.
    const next = new URL(
      new URLSearchParams(window.location.search).get('next_page') ?? '',
      'http://shop.test',
    );
    expect(next.pathname).toBe('/search');
    expect(next.searchParams.get('q')).toBe('малина');
  });

  it('replaces the failed page in the history instead of adding an entry', async () => {
    stubFetch(() => ({ status: 401, body: { detail: 'Недопустимый токен.' } }));
    window.history.replaceState(null, '', '/order_status');
    const before = window.history.length;
    signIn('t-revoked');
    await expect(getBasket()).rejects.toThrow();
    await waitFor(() => expect(window.location.pathname).toBe('/login/'));
    expect(window.history.length).toBe(before);
  });

  it('stays on /login/ (keeping its next_page) when the 401 happens there', async () => {
    stubFetch(() => ({ status: 401, body: { detail: 'Недопустимый токен.' } }));
    window.history.replaceState(null, '', '/login/?next_page=%2Forder');
    signIn('t-revoked');
    await expect(getBasket()).rejects.toThrow();
    expect(window.location.pathname + window.location.search).toBe('/login/?next_page=%2Forder');
    expect(session.token).toBeNull();
  });
});
