import { searchProducts, searchSections } from '../../api/catalog';
import { idsShown, productShown, SEARCH_RESULTS, sectionShown } from '../../lib/shown-data';
import { sharedQuery } from '../../ui/page-data';
import type { SearchFound } from './useSearchResults';

/**
 * The whole answer for `q`, as the server renders it (and a navigation starts it). Typing on the
 * page searches through useSearchResults, which also lets late sections go.
 */
export const searchQuery = (q: string) =>
  sharedQuery(
    `catalog/search?q=${q}`,
    async (api): Promise<SearchFound> => {
      const [sections, products] = await Promise.all([
        searchSections(q, undefined, api).catch(() => []),
        searchProducts(q, undefined, api),
      ]);
      return { query: q, sections, products };
    },
    (found) => [
      SEARCH_RESULTS,
      ...idsShown(found.sections, sectionShown),
      ...idsShown(found.products, productShown),
    ],
  );
