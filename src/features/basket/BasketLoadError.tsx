import { useEffect } from 'react';
import type { FailureCase } from '../../api/call-failure';
import { ErrorState } from '../../ui/ErrorState';
import { loadFailedText, useBasket, useBasketStore } from './store';

/**
 * Where a page that shows the basket stands: `failed` when the basket never loaded and the last
 * try failed, `loading` until it first comes, then `loaded`. While the page is shown, it shows a
 * failed load itself (with `BasketLoadError`) instead of the notice on top.
 */
export function useBasketLoad(): 'failed' | 'loading' | 'loaded' {
  const { loaded, loadFailure, loading } = useBasket();
  const { claimLoadFailure } = useBasketStore();
  useEffect(claimLoadFailure, [claimLoadFailure]);
  if (loaded) return 'loaded';
  return loadFailure && !loading ? 'failed' : 'loading';
}

/**
 * A basket that never loaded: the page's message for the case of the failure, and `Повторить`,
 * which loads it again.
 */
export function BasketLoadError({
  text = loadFailedText,
}: {
  text?: (failure: FailureCase) => string;
}) {
  const { loadFailure } = useBasket();
  const { loadBasket } = useBasketStore();
  return (
    <ErrorState message={text(loadFailure ?? 'unreachable')} onRetry={() => void loadBasket()} />
  );
}
