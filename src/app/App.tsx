import {
  type CSSVariablesResolver,
  localStorageColorSchemeManager,
  MantineProvider,
} from '@mantine/core';
import { Layout } from './layout/Layout';
import { NotificationsOnDemand } from './NotificationsOnDemand';
import { Routes } from './routes';
import { ScrollReset } from './ScrollReset';
import { theme } from './theme';

// Spec §3: the theme lives in localStorage under `theme`; light is the default.
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'theme' });

// Mantine's default dimmed grey is below WCAG AA on light backgrounds; a darker one is not.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

export function App() {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      // All of the theme's variables, not only those that differ from Mantine's defaults: the
      // defaults' stylesheet is not loaded (see mantine-styles.ts).
      deduplicateCssVariables={false}
    >
      <NotificationsOnDemand />
      <ScrollReset />
      <Layout>
        <Routes />
      </Layout>
    </MantineProvider>
  );
}
