import { searchProducts, searchSections } from '../../api/catalog';
import { query } from '../../ui/page-data';
import type { SearchFound } from './useSearchResults';

/**
 * The whole answer for `q`, as the server renders it (and a navigation starts it). Typing on the
 * page searches through useSearchResults, which also lets late sections go.
 */
export const searchQuery = (q: string) =>
  query(`catalog/search?q=${q}`, async (): Promise<SearchFound> => {
    const [sections, products] = await Promise.all([
      searchSections(q).catch(() => []),
      searchProducts(q),
    ]);
    return { query: q, sections, products };
  });
