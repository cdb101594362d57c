import { act, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Policy } from '../../../src/api/types';
import { CookieNotice } from '../../../src/app/layout/CookieNotice';
import { preloadPage, Routes } from '../../../src/app/routes';
import { POLICY_FILE_MISSING } from '../../../src/features/policy/PolicyPage';
import { renderAt } from '../render';

const { getPolicy } = vi.hoisted(() => ({ getPolicy: vi.fn<() => Promise<Policy>>() }));
vi.mock('../../../src/api/content', () => ({ getPolicy }));

beforeEach(() => {
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
});
afterEach(() => {
  getPolicy.mockReset();
});

// The page comes with its route (it takes its data as props), its code loaded before the test.
beforeAll(() => preloadPage('/policy'));
describe('the policy page', () => {
  it('offers Посмотреть, opening the policy file in a new tab', async () => {
    getPolicy.mockResolvedValue({ file: '/media/policy.pdf' });
    renderAt(<Routes />, '/policy');
    expect(screen.getByRole('heading', { name: 'Политика конфиденциальности' })).toBeTruthy();
    const view = await screen.findByRole('link', { name: /Посмотреть/ });
    expect(view.getAttribute('href')).toBe('/media/policy.pdf');
    expect(view.getAttribute('target')).toBe('_blank');
    expect(view.getAttribute('rel')).toContain('noopener');
  });

  it('shows Произошла ошибка when the load fails, and the file after Повторить', async () => {
    getPolicy.mockRejectedValueOnce(new Error('500'));
    getPolicy.mockResolvedValueOnce({ file: '/media/policy.pdf' });
    renderAt(<Routes />, '/policy');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Произошла ошибка');
    expect(screen.queryByRole('link', { name: /Посмотреть/ })).toBeNull();

    act(() => screen.getByRole('button', { name: /Повторить/ }).click());
    // The file, not only the alert gone: between the two, the page shows its loading state.
    const view = await screen.findByRole('link', { name: /Посмотреть/ });
    expect(view.getAttribute('href')).toBe('/media/policy.pdf');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(getPolicy).toHaveBeenCalledTimes(2);
  });

  it.each(['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>'])(
    'says the text is not available, with no link, when the file’s address is %s',
    async (file) => {
      getPolicy.mockResolvedValue({ file });
      const { container } = renderAt(<Routes />, '/policy');
      await screen.findByText(POLICY_FILE_MISSING);
      expect(screen.queryByRole('link', { name: /Посмотреть/ })).toBeNull();
      expect(container.innerHTML).not.toContain(file.slice(0, 10));
    },
  );

  it('links a file kept on another site over https', async () => {
    getPolicy.mockResolvedValue({ file: 'https://files.example/policy.pdf' });
    renderAt(<Routes />, '/policy');
    const view = await screen.findByRole('link', { name: /Посмотреть/ });
    expect(view.getAttribute('href')).toBe('https://files.example/policy.pdf');
  });

  it('is shown without the cookie notice', async () => {
    getPolicy.mockResolvedValue({ file: '/media/policy.pdf' });
    renderAt(
      <>
        <Routes />
        <CookieNotice />
      </>,
      '/policy',
    );
    await screen.findByRole('link', { name: /Посмотреть/ });
    expect(screen.queryByRole('region', { name: 'Уведомление о cookie' })).toBeNull();
  });
});
