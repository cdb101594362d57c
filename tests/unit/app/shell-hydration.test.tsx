import { MantineProvider } from '@mantine/core';
import { act, waitFor } from '@testing-library/react';
import { Profiler, type ProfilerOnRenderCallback } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { colorSchemeManager } from '../../../src/app/App';
import { MainMenu } from '../../../src/app/layout/MainMenu';
import { ThemeToggle } from '../../../src/app/layout/ThemeToggle';
import { theme } from '../../../src/app/theme';
import {
  BasketSeedContext,
  BasketStoreContext,
  type BasketStart,
  createBasketStore,
  seededBasket,
} from '../../../src/features/basket/store';
import { session } from '../../../src/features/session/store';
import { hydrate, serverHtml } from '../hydrate';

const EMPTY: BasketStart = { lines: {}, amount_sum: 0 };
/** An empty basket, seeded as main.tsx seeds the page's. */
const seededStore = createBasketStore();
seededStore.seed(EMPTY);

/** The header's menu and the footer's theme toggle, as the app draws them. */
function Shell({ onRender }: { onRender: ProfilerOnRenderCallback }) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
    >
      <BasketStoreContext value={seededStore}>
        <BasketSeedContext value={seededBasket(EMPTY)}>
          <Router ssrPath="/">
            <Profiler id="shell" onRender={onRender}>
              <MainMenu />
              <ThemeToggle />
            </Profiler>
          </Router>
        </BasketSeedContext>
      </BasketStoreContext>
    </MantineProvider>
  );
}

// Before, not after: the roots are unmounted after each test (hydrate.tsx), and a change while
// they are still there would render them outside act.
beforeEach(() => {
  document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  session.token = null;
  localStorage.clear();
});

/** The server's HTML (which knows neither the login nor the theme), taken over by React. */
async function hydrateShell() {
  const container = serverHtml(<Shell onRender={() => {}} />);
  const phases: string[] = [];
  const redrawn = vi.fn();
  await act(async () => {
    hydrate(container, <Shell onRender={(_, phase) => phases.push(phase)} />, redrawn);
  });
  expect(redrawn).not.toHaveBeenCalled();
  return { container, phases };
}

describe('the shell as React takes the page over', () => {
  it('draws a logged-out visitor’s light page once: nothing differs, nothing renders again', async () => {
    const { container, phases } = await hydrateShell();
    expect(phases).toEqual(['mount']);
    expect(container.querySelector('[aria-label="Переключить тему"]')?.getAttribute('title')).toBe(
      'Тёмная тема',
    );
  });

  it('then shows what only the browser knows: the dark theme and the login', async () => {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'dark');
    localStorage.setItem('theme', 'dark');
    session.token = 'stored-token';
    const { container, phases } = await hydrateShell();
    expect(phases[0]).toBe('mount');
    expect(container.querySelector('[aria-label="Переключить тему"]')?.getAttribute('title')).toBe(
      'Светлая тема',
    );
    await waitFor(() => expect(container.textContent).toContain('Выйти'));
  });

  it('follows a logout after the take-over: the menu drops Выйти', async () => {
    session.token = 'stored-token';
    const { container } = await hydrateShell();
    await waitFor(() => expect(container.textContent).toContain('Выйти'));
    await act(async () => {
      session.token = null;
    });
    expect(container.textContent).not.toContain('Выйти');
    expect(container.textContent).toContain('Заказы');
  });
});
