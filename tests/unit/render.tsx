import { MantineProvider } from '@mantine/core';
import { render as testingLibraryRender } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { colorSchemeManager } from '../../src/app/App';
import { theme } from '../../src/app/theme';
import { BasketStoreContext } from '../../src/features/basket/store';
import { testBasket } from './test-basket';

/**
 * Renders inside the app's MantineProvider and a router that starts at `path`, with the test's
 * own basket (test-basket.ts).
 */
export function renderAt(ui: ReactNode, path = '/') {
  const location = memoryLocation({ path, record: true });
  const result = testingLibraryRender(
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
    >
      <BasketStoreContext value={testBasket()}>
        <Router hook={location.hook}>{ui}</Router>
      </BasketStoreContext>
    </MantineProvider>,
  );
  return { ...result, location };
}
