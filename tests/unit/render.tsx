import { MantineProvider } from '@mantine/core';
import { render as testingLibraryRender } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { colorSchemeManager } from '../../src/app/App';
import { theme } from '../../src/app/theme';

/** Renders inside the app's MantineProvider and a router that starts at `path`. */
export function renderAt(ui: ReactNode, path = '/') {
  const location = memoryLocation({ path, record: true });
  const result = testingLibraryRender(
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
    >
      <Router hook={location.hook}>{ui}</Router>
    </MantineProvider>,
  );
  return { ...result, location };
}
