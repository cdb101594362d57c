import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { BackField } from '../../ui/BackField';
import { IconButton } from '../../ui/controls/IconButton';
import { useHydrated } from '../../ui/hydration';

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
      <IconButton
        type="submit"
        variant="default"
        size="lg"
        aria-label="Переключить тему"
        title={dark ? 'Светлая тема' : 'Тёмная тема'}
        onClick={(event) => {
          event.preventDefault();
          setColorScheme(scheme === 'dark' ? 'light' : 'dark');
        }}
      >
        <IconSun size={20} aria-hidden data-icon="sun" className="mantine-light-hidden" />
        <IconMoon size={20} aria-hidden data-icon="moon" className="mantine-dark-hidden" />
      </IconButton>
    </form>
  );
}
