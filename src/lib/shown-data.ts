// Names for what a page shows, in the words of the backend's change hook
// (host/backend/change-hook.ts): each shared query says what its answer shows, so that a change
// renews the pages and the kept answers that show it, and nothing else (src/server-entry/changes.ts
// matches them).

/** A product's own data: its name, photo, price, stock, availability. */
export const productShown = (id: number) => `product:${id}`;
/** A section's own data: its name and photo, wherever it appears (lists, breadcrumbs). */
export const sectionShown = (id: number) => `section:${id}`;
/** A selection's own data: its name, description, the products and sections in it. */
export const selectionShown = (id: number) => `selection:${id}`;

/**
 * Lists whose members a change may add or take away without naming them: which products,
 * sections and selections the home page shows; the catalogue's sections; what a search finds.
 */
export const HOME_LISTS = 'home';
export const ROOT_SECTIONS = 'catalog';
export const SEARCH_RESULTS = 'search';

export const SLIDES_SHOWN = 'slides';
export const NEWS_SHOWN = 'news';
export const POLICY_SHOWN = 'policy';

/** The names of `items`' ids, as `shown` names them. */
export function idsShown(
  items: readonly { id: number }[],
  shown: (id: number) => string,
): string[] {
  return items.map((item) => shown(item.id));
}
