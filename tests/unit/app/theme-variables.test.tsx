import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { theme } from '../../../src/app/theme';
import { DIMMED, themeVariablesCss } from '../../../src/app/theme-variables';

test("the theme's variables, built once, are exactly what MantineProvider writes itself", () => {
  const html = renderToStaticMarkup(
    <MantineProvider
      theme={theme}
      cssVariablesResolver={() => ({ variables: {}, ...DIMMED })}
      deduplicateCssVariables={false}
    />,
  );
  const mantine = /<style data-mantine-styles="true">([^<]*)<\/style>/.exec(html)?.[1];
  expect(mantine).toBeDefined();
  expect(themeVariablesCss()).toBe(mantine);
  expect(themeVariablesCss()).toContain('--mantine-color-berry-7: #ad1f54');
  expect(themeVariablesCss()).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)');
});
