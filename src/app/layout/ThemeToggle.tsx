import { useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { BackField } from '../../ui/BackField';
import { IconButton } from '../../ui/controls/IconButton';

/** The shop's server switches the theme's cookie before the app's code arrives, or without it. */
const THEME_ACTION = '/theme';

/** Where the page says which theme it is drawn in (Mantine sets it, and so does the server). */
const SCHEME = 'data-mantine-color-scheme';

function onSchemeChange(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: [SCHEME] });
  return () => observer.disconnect();
}
const isDark = () => document.documentElement.getAttribute(SCHEME) === 'dark';
const serverIsLight = () => false;

/**
 * Whether the page is drawn dark, read from the page itself. The toggle in the server's HTML is
 * shared by both themes' visitors and is the light page's, and so is its hydration; then it
 * follows the page. A light page's toggle is not drawn a second time after hydration, as it
 * would be by a flag that changes there.
 */
function useDarkPage(): boolean {
  return useSyncExternalStore(onSchemeChange, isDark, serverIsLight);
}

/**
 * Sun icon in the dark theme, moon icon otherwise (spec §2). Both icons are in the HTML and the
 * theme's CSS shows one: the server's HTML is shared by both themes' visitors until hydration.
 * The button submits a form: before the app has arrived (or without JavaScript) the server
 * switches the theme and sends the browser back to the page; once the app runs, it switches the
 * theme itself, with no reload.
 */
export function ThemeToggle() {
  const { toggleColorScheme } = useMantineColorScheme();
  const dark = useDarkPage();
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
          toggleColorScheme();
        }}
      >
        <IconSun size={20} aria-hidden data-icon="sun" className="mantine-light-hidden" />
        <IconMoon size={20} aria-hidden data-icon="moon" className="mantine-dark-hidden" />
      </IconButton>
    </form>
  );
}
