import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';
import type { Query } from '../../ui/page-data';
import { searchQuery } from './queries';
import { queryOf } from './query';
import type { SearchFound } from './useSearchResults';

// Search results are the same for every visitor, but not for an index.
export const searchRoute = defineRoute({
  path: paths.search.pattern,
  // The results the server renders and a navigation starts. Typing on the page searches on its
  // own (useSearchResults), after a pause (spec §9), and finds these by their key first.
  data: (_params, search) => {
    const q = queryOf(search.get('q') ?? '');
    const deferred: Record<string, Query<SearchFound>> = q === ''
      ? {}
      : { results: searchQuery(q) };
    return { deferred };
  },
  title: 'Поиск',
  page: () => import('./SearchPage'),
  server: SERVER && { indexable: false, cache: 'public' },
});
