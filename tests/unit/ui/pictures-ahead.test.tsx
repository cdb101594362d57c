import { render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePicturesAhead } from '../../../src/ui/pictures-ahead';

/** The elements an IntersectionObserver was asked to watch, and a way to report one near. */
const watched: Element[] = [];
let report: ((entries: Partial<IntersectionObserverEntry>[]) => void) | undefined;

class FakeObserver {
  constructor(callback: (entries: Partial<IntersectionObserverEntry>[]) => void) {
    report = callback;
  }
  observe(element: Element) {
    watched.push(element);
  }
  disconnect() {}
}

function Block() {
  const block = useRef<HTMLElement>(null);
  usePicturesAhead(block);
  return (
    <section ref={block} aria-label="Подборка">
      <img src="/img/v1/320/catalog/product-2.jpg" alt="Малина" loading="lazy" />
    </section>
  );
}

/** The page's scroll, as a browser fires it: at the document, bubbling to the window. */
const scroll = () => document.dispatchEvent(new Event('scroll', { bubbles: true }));

describe('usePicturesAhead', () => {
  beforeEach(() => {
    watched.length = 0;
    report = undefined;
    vi.stubGlobal('IntersectionObserver', FakeObserver);
  });
  afterEach(() => {
    window.scrollY = 0;
    vi.unstubAllGlobals();
  });

  it('watches a block below the screen only once the page scrolls, not while it starts', () => {
    render(<Block />);
    expect(watched).toEqual([]);
    scroll();
    expect(watched.map((element) => element.getAttribute('aria-label'))).toEqual(['Подборка']);
    // Once: a second scroll adds no second watch.
    scroll();
    expect(watched).toHaveLength(1);
  });

  it('watches once a row in the page scrolls sideways (a swipe along a selection)', () => {
    const { container } = render(
      <>
        <div data-testid="row" />
        <Block />
      </>,
    );
    expect(watched).toEqual([]);
    // An element's scroll does not bubble.
    container.querySelector('[data-testid="row"]')!.dispatchEvent(new Event('scroll'));
    expect(watched).toHaveLength(1);
  });

  it('watches at once on a page that opens scrolled (a reload, a way back)', () => {
    window.scrollY = 600;
    render(<Block />);
    expect(watched).toHaveLength(1);
  });

  it('watches nothing after the block has gone', () => {
    const { unmount } = render(<Block />);
    unmount();
    scroll();
    expect(watched).toEqual([]);
  });

  it('asks for the block’s lazy pictures when it comes near', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'Image',
      class {
        sizes = '';
        srcset = '';
        set src(address: string) {
          asked.push(address);
        }
      },
    );
    const { container } = render(<Block />);
    // Not yet loaded, as below a phone's first screen (happy-dom calls every picture complete).
    Object.defineProperty(container.querySelector('img'), 'complete', { value: false });
    scroll();
    report?.([{ isIntersecting: true }]);
    await vi.waitFor(() => expect(asked).toEqual(['/img/v1/320/catalog/product-2.jpg']), {
      timeout: 15_000,
    });
  });
});
