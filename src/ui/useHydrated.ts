import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React hydrates the server's HTML (and on the server), true after. A part of the
 * page that shows what only the browser knows (the visitor's basket) renders as the server did
 * until then: a part hydrated late (a Suspense boundary) would otherwise meet data that arrived
 * in between, and not match.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
