// What the backend says changed (its change hook, host/backend/change-hook.ts), and which of what
// pages show (src/lib/shown-data.ts) that reaches: the kept answers it outdates here, and the pages
// nginx keeps that host/pages/page-renewal.ts renews.
import {
  HOME_LISTS,
  NEWS_SHOWN,
  POLICY_SHOWN,
  productShown,
  ROOT_SECTIONS,
  SEARCH_RESULTS,
  sectionShown,
  selectionShown,
  SLIDES_SHOWN,
} from '../lib/shown-data';

/** One hook's news, or several hooks' together. */
export interface Change {
  products: number[];
  sections: number[];
  selections: number[];
  slides: boolean;
  news: boolean;
  policy: boolean;
  /** Everything may have changed (an import, a new build): every page and answer is renewed. */
  everything: boolean;
}

export const NO_CHANGE: Change = {
  products: [],
  sections: [],
  selections: [],
  slides: false,
  news: false,
  policy: false,
  everything: false,
};

/** Two changes as one (a burst of hooks, renewed at once). */
export function joinChanges(one: Change, other: Change): Change {
  const union = (a: number[], b: number[]) => [...new Set([...a, ...b])];
  return {
    products: union(one.products, other.products),
    sections: union(one.sections, other.sections),
    selections: union(one.selections, other.selections),
    slides: one.slides || other.slides,
    news: one.news || other.news,
    policy: one.policy || other.policy,
    everything: one.everything || other.everything,
  };
}

/**
 * What a change reaches, as queries name what they show; null for everything. A product, section
 * or selection may have joined or left the home page's lists; a section the catalogue's, and what
 * searches find (a new product is named with its section: contracts/README.md, "Tell the shop
 * what changed").
 */
export function changedShown(change: Change): Set<string> | null {
  if (change.everything) return null;
  const shown = new Set<string>();
  for (const id of change.products) shown.add(productShown(id));
  for (const id of change.sections) shown.add(sectionShown(id));
  for (const id of change.selections) shown.add(selectionShown(id));
  if (change.products.length + change.sections.length + change.selections.length > 0) {
    shown.add(HOME_LISTS);
  }
  if (change.sections.length > 0) {
    shown.add(ROOT_SECTIONS);
    shown.add(SEARCH_RESULTS);
  }
  if (change.slides) shown.add(SLIDES_SHOWN);
  if (change.news) shown.add(NEWS_SHOWN);
  if (change.policy) shown.add(POLICY_SHOWN);
  return shown;
}

/** Whether something that shows `shows` is reached by `changed` (null: everything). */
export function isReached(shows: readonly string[], changed: Set<string> | null): boolean {
  return changed === null || shows.some((name) => changed.has(name));
}
