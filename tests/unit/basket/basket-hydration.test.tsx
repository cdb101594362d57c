import { act } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Basket } from '../../../src/api/types';
import {
  amountOf,
  type BasketStore,
  BasketSeedContext,
  BasketStoreContext,
  createBasketStore,
  seededBasket,
  useBasket,
} from '../../../src/features/basket/store';
import { RASPBERRY } from '../basket-fakes';
import { hydrate, serverHtml } from '../hydrate';

const LINES: Basket = { [RASPBERRY.id]: { product: RASPBERRY, amount: 2 } };

/** A part that shows the basket, as a card's control does, and counts its renders. */
function Amount({ renders }: { renders: () => void }) {
  renders();
  return <output>{amountOf(useBasket().lines, RASPBERRY.id)}</output>;
}

function Page({ store, renders }: { store: BasketStore; renders: () => void }) {
  return (
    <BasketStoreContext value={store}>
      <BasketSeedContext value={seededBasket({ lines: LINES, amount_sum: 1780 })}>
        <Amount renders={renders} />
        {/* A block hydrated on its own, after the rest (the home page's LaterBlock). */}
        <Suspense>
          <Amount renders={renders} />
        </Suspense>
      </BasketSeedContext>
    </BasketStoreContext>
  );
}

/** The server's HTML of the page, and the browser's store seeded as main.tsx seeds it. */
function serverPage() {
  const container = serverHtml(<Page store={createBasketStore()} renders={() => {}} />);
  const store = createBasketStore();
  store.seed({ lines: LINES, amount_sum: 1780 });
  return { container, store };
}

describe('the basket as React takes the page over', () => {
  it('renders each part once: the seeded basket is the live one, no second render follows', async () => {
    const { container, store } = serverPage();
    const renders = vi.fn();
    const redrawn = vi.fn();
    await act(async () => {
      hydrate(container, <Page store={store} renders={renders} />, redrawn);
    });
    expect(renders).toHaveBeenCalledTimes(2);
    expect(redrawn).not.toHaveBeenCalled();
    expect([...container.querySelectorAll('output')].map((shown) => shown.textContent)).toEqual([
      '2',
      '2',
    ]);
  });

  it('shows the server’s basket while taking a part over after a change, then the change', async () => {
    const { container, store } = serverPage();
    // The basket changed before React reached the page (an answer that came first).
    store.state.lines = { [RASPBERRY.id]: { product: RASPBERRY, amount: 3 } };
    const redrawn = vi.fn();
    await act(async () => {
      hydrate(container, <Page store={store} renders={() => {}} />, redrawn);
    });
    expect(redrawn).not.toHaveBeenCalled();
    expect([...container.querySelectorAll('output')].map((shown) => shown.textContent)).toEqual([
      '3',
      '3',
    ]);
  });
});
