// The basket (spec §3, §4) as one store: its state (basket-state.ts), kept in step with the
// server (basket-sync.ts), with the notice of a load that failed (load-notice.ts). The page has
// one (`pageBasket`, which main.tsx seeds and startup.ts keeps in step); its parts find it through
// BasketStoreContext, and a test gives them a fresh one there.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { proxy, type Snapshot, snapshot, useSnapshot } from 'valtio';
import { type BasketStart, type BasketState, initialState, seededBasket } from './basket-state';
import { createBasketSync } from './basket-sync';
import { createLoadNotice } from './load-notice';

export {
  amountOf,
  type BasketSeed,
  type BasketStart,
  type BasketState,
  checkedProduct,
  lineCount,
  orderableLineCount,
  seededBasket,
} from './basket-state';
export { loadFailedText } from './load-notice';

/** A basket of its own: empty until seeded or loaded. */
export function createBasketStore() {
  const state = proxy<BasketState>(initialState());
  const notice = createLoadNotice(state, () => void sync.loadBasket());
  const sync = createBasketSync(state, notice);
  /** The basket as seeded: valtio hands out this same snapshot until something changes it. */
  let seeded: Snapshot<BasketState> | null = null;
  return {
    state,
    ...sync,
    claimLoadFailure: notice.claim,
    /** In the browser, before hydration: the store starts from what the server rendered. */
    seed(start: BasketStart): void {
      Object.assign(state, seededBasket(start));
      seeded = snapshot(state);
    },
    /** Whether the basket is still the one it was seeded with: nothing has changed it since. */
    isAsSeeded(): boolean {
      return seeded !== null && snapshot(state) === seeded;
    },
  };
}

export type BasketStore = ReturnType<typeof createBasketStore>;

/** The page's basket in the browser. */
export const pageBasket = createBasketStore();

/** The basket the app's parts show and change: the page's, or a test's own. */
export const BasketStoreContext = createContext<BasketStore>(pageBasket);

export function useBasketStore(): BasketStore {
  return useContext(BasketStoreContext);
}

/** The basket the page was rendered with (src/app/App.tsx provides it). */
export const BasketSeedContext = createContext<Snapshot<BasketState>>(initialState());

const noSubscription = () => () => {};

/**
 * The basket for rendering. While React takes the server's HTML over, a part shows the basket as
 * the server rendered it: a part hydrated late (a Suspense boundary) would otherwise meet a change
 * made in between, and not match. The live basket is that one as long as nothing has changed it
 * since the page seeded it; then it is shown from the start, and hydration over, no part renders
 * again. (A second render of every card's control, which React does at once, in one task, held a
 * phone's main thread for some 200 ms: issue 44.)
 */
export function useBasket(): Snapshot<BasketState> {
  const store = useBasketStore();
  const snap = useSnapshot(store.state);
  const seed = useContext(BasketSeedContext);
  const live = useSyncExternalStore(noSubscription, () => true, store.isAsSeeded);
  return live ? snap : seed;
}
