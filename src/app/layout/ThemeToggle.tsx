import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useHydrated } from '../../ui/useHydrated';

/**
 * Sun icon in the dark theme, moon icon otherwise (spec §2). Both icons are in the HTML and the
 * theme's CSS shows one: the server cannot know the stored theme, and the right icon must show
 * before the app has read it.
 */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  // The stored theme is known only in the browser: the title follows it once hydrated.
  const dark = useHydrated() && scheme === 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label="Переключить тему"
      title={dark ? 'Светлая тема' : 'Тёмная тема'}
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
    >
      <IconSun size={20} aria-hidden data-icon="sun" className="mantine-light-hidden" />
      <IconMoon size={20} aria-hidden data-icon="moon" className="mantine-dark-hidden" />
    </ActionIcon>
  );
}
