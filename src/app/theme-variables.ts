import {
  convertCssVariables,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
} from '@mantine/core';
import { theme } from './theme';

/** Mantine's dimmed grey is below WCAG AA on light backgrounds; a darker one is not. */
export const DIMMED = {
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
};

// eslint-disable-next-line no-restricted-syntax -- module state: a cache of a pure function's one answer
let css: string | undefined;

/**
 * Every variable of the theme, both colour schemes: what MantineProvider writes with
 * `deduplicateCssVariables={false}`. The server puts it in every page's head, built once per
 * process: MantineProvider built it on every render (4% of a page's time on the server) and
 * again in the phone's hydration, and the browser never needs it from the app's code.
 */
export function themeVariablesCss(): string {
  if (css === undefined) {
    const mantine = defaultCssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme));
    css =
      convertCssVariables({
        variables: mantine.variables,
        light: { ...mantine.light, ...DIMMED.light },
        dark: { ...mantine.dark, ...DIMMED.dark },
      }) +
      convertCssVariables({
        variables: {},
        dark: { '--mantine-color-scheme': 'dark' },
        light: { '--mantine-color-scheme': 'light' },
      });
  }
  return css;
}
