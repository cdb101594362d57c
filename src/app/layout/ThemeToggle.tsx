import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Sun icon in the dark theme, moon icon otherwise (spec §2). */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const dark = scheme === 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label="Переключить тему"
      title={dark ? 'Светлая тема' : 'Тёмная тема'}
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
    >
      {dark ? (
        <IconSun size={20} aria-hidden data-icon="sun" />
      ) : (
        <IconMoon size={20} aria-hidden data-icon="moon" />
      )}
    </ActionIcon>
  );
}
