// The server's HTML of a part, taken over by React in the browser as src/main.tsx does: for the
// tests of what a shopper sees at that moment. Each root is unmounted after its test.
import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach } from 'vitest';

let roots: Root[] = [];
afterEach(() => {
  act(() => {
    for (const root of roots) root.unmount();
  });
  roots = [];
  document.body.innerHTML = '';
});

/** The server's HTML of `ui`, in a container of the page. */
export function serverHtml(ui: ReactNode): HTMLDivElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  document.body.append(container);
  return container;
}

/**
 * React takes `container` over with `ui` (call it inside `act`). `onRecoverableError` hears of
 * a part React gave up hydrating and drew anew.
 */
export function hydrate(
  container: Element,
  ui: ReactNode,
  onRecoverableError?: (error: unknown) => void,
): void {
  roots.push(hydrateRoot(container, ui, { onRecoverableError }));
}
