import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';
import { rootSectionsQuery } from './queries';
import { CATALOG_TITLE } from './texts';

export const catalogRoute = defineRoute({
  path: paths.catalog.pattern,
  data: () => ({ deferred: { sections: rootSectionsQuery } }),
  title: CATALOG_TITLE,
  page: () => import('./CatalogPage'),
  server: SERVER && { indexable: true, cache: 'public' },
});
