import { sameOriginPath } from '../../lib/same-origin-path';

/** Where the back arrow leads: the page the search was opened from, if on this site, or `/`. */
export function backTo(from: string | null): string {
  return sameOriginPath(from);
}

interface NavigationLike {
  canGoBack?: boolean;
}

/**
 * True when the previous history entry is a page of this shop. The Navigation API knows it
 * exactly (its entries are this origin's only); without it, any earlier entry counts.
 */
export function canGoBackInShop(): boolean {
  const navigation = (window as Window & { navigation?: NavigationLike }).navigation;
  if (typeof navigation?.canGoBack === 'boolean') return navigation.canGoBack;
  return window.history.length > 1;
}
