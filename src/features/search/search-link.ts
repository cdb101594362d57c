import { paths } from '../../lib/paths';

/**
 * The search page's query parameter for the page it was opened from: the header's magnifier
 * sets it, the back arrow leads there (go-back.ts). In the URL, not read from the request's
 * Referer, so the page is the same for every visitor who opens the same address.
 */
export const FROM_PARAM = 'from';

/** The address of the search opened from `from`, a path on this site with its query. */
export function searchLink(from: string): string {
  return paths.search({ [FROM_PARAM]: from === paths.home() ? undefined : from });
}
