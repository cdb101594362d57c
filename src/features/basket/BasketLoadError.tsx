import { useEffect } from 'react';
import { ErrorState } from '../../ui/ErrorState';
import { LOAD_FAILED_TEXT, useBasket, useBasketStore } from './store';

/**
 * Where a page that shows the basket stands: `failed` when the basket never loaded and the last
 * try failed, `loading` until it first comes, then `loaded`. While the page is shown, it shows a
 * failed load itself (with `BasketLoadError`) instead of the notice on top.
 */
export function useBasketLoad(): 'failed' | 'loading' | 'loaded' {
  const { loaded, loadFailed, loading } = useBasket();
  const { claimLoadFailure } = useBasketStore();
  useEffect(claimLoadFailure, [claimLoadFailure]);
  if (loaded) return 'loaded';
  return loadFailed && !loading ? 'failed' : 'loading';
}

/** A basket that never loaded: the message and `Повторить`, which loads it again. */
export function BasketLoadError({ message = LOAD_FAILED_TEXT }: { message?: string }) {
  const { loadBasket } = useBasketStore();
  return <ErrorState message={message} onRetry={() => void loadBasket()} />;
}
