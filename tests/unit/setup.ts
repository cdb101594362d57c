import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// waitFor and findBy* end as soon as their condition holds; the limit only bounds a failing wait,
// and on a loaded machine a render can take far longer than the library's 1 s default.
configure({ asyncUtilTimeout: 15_000 });

// happy-dom lacks these browser APIs that Mantine uses (as in Mantine's vite-template).
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn().mockImplementation((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub;
window.scrollTo = () => {};

// happy-dom lays nothing out, so Mantine's focus trap finds no visible element in an open menu
// and warns with the whole DOM node (thousands of lines a test). Only that warning is dropped.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('[@mantine/hooks/use-focus-trap]')) return;
  warn(...args);
};
Element.prototype.scrollIntoView ??= () => {};
// happy-dom has no popover API (the header menu's popover); the browser tests open it for real.
HTMLElement.prototype.showPopover ??= () => {};
HTMLElement.prototype.hidePopover ??= () => {};
HTMLElement.prototype.togglePopover ??= () => false;

afterEach(() => {
  cleanup();
  localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // A past Expires: happy-dom keeps a max-age=0 cookie readable until its clock ticks on.
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});
