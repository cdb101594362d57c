// The notice of a basket that did not load, with `Повторить`: a shopper is never left with a
// basket that silently is not there. The basket and checkout pages show such a failure as their
// own error state instead, while they are open.
import type { FailureCase } from '../../api/call-failure';
import { failureText } from '../../ui/failure-text';
import { hideRetryNotice, showRetryNotice } from '../../ui/notify';
import type { BasketState } from './basket-state';

/** What a failed basket load says, by its case. */
export const loadFailedText = (failure: FailureCase): string =>
  failureText('Не удалось загрузить корзину', failure);

const LOAD_NOTICE = 'basket-load-failed';

export interface LoadNotice {
  /**
   * The basket failed to load. A page with its own error state needs no notice; a basket that
   * loaded before and failed to refresh is shown as last known, so the notice is its only sign.
   */
  report(): void;
  /** The basket loaded: the notice goes. */
  hide(): void;
  /**
   * For pages that show a failed basket load themselves (call it in an effect; it returns the
   * cleanup). Leaving such a page with the basket still not loaded brings the notice back.
   */
  claim(): () => void;
}

/** The notice of the basket `state`; `retry` loads it again. */
export function createLoadNotice(state: BasketState, retry: () => void): LoadNotice {
  /** Mounted pages that show a basket that never loaded as their own error state. */
  let ownErrorViews = 0;
  const report = () => {
    if (ownErrorViews > 0 && !state.loaded) return;
    showRetryNotice(LOAD_NOTICE, loadFailedText(state.loadFailure ?? 'unreachable'), retry);
  };
  return {
    report,
    hide: () => hideRetryNotice(LOAD_NOTICE),
    claim() {
      ownErrorViews += 1;
      if (!state.loaded) hideRetryNotice(LOAD_NOTICE);
      return () => {
        ownErrorViews -= 1;
        if (state.loadFailure && !state.loaded && !state.loading) report();
      };
    },
  };
}
