import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { BackField } from '../../ui/BackField';
import looks from '../../ui/ControlLooks.module.css';
import { useHydrated } from '../../ui/hydration';
import { ACTION_ICON, ACTION_ICON_ICON, BUTTON_ACTIVE } from '../../ui/mantine-looks';

/** The shop's server switches the theme's cookie before the app's code arrives, or without it. */
const THEME_ACTION = '/theme';

/**
 * Sun icon in the dark theme, moon icon otherwise (spec §2). Both icons are in the HTML and the
 * theme's CSS shows one: the server's HTML is shared by both themes' visitors until hydration.
 * The button submits a form: before the app has arrived (or without JavaScript) the server
 * switches the theme and sends the browser back to the page; once the app runs, it switches the
 * theme itself, with no reload.
 */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  // The stored theme is known only in the browser: the title follows it once hydrated.
  const dark = useHydrated() && scheme === 'dark';
  return (
    <form method="post" action={THEME_ACTION} style={{ display: 'contents' }}>
      <BackField />
      {/* Mantine's default ActionIcon, drawn by a plain button (mantine-looks.ts). */}
      <button
        type="submit"
        className={`${ACTION_ICON} ${BUTTON_ACTIVE} ${looks.iconDefault}`}
        aria-label="Переключить тему"
        title={dark ? 'Светлая тема' : 'Тёмная тема'}
        onClick={(event) => {
          event.preventDefault();
          setColorScheme(scheme === 'dark' ? 'light' : 'dark');
        }}
      >
        <span className={ACTION_ICON_ICON}>
          <IconSun size={20} aria-hidden data-icon="sun" className="mantine-light-hidden" />
          <IconMoon size={20} aria-hidden data-icon="moon" className="mantine-dark-hidden" />
        </span>
      </button>
    </form>
  );
}
