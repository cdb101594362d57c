import { paths } from '../../lib/paths';
import { defineRoute, type Params, SERVER } from '../../ui/route';
import { selectionHead } from './heads';
import { STORE_NAME } from '../../lib/shop-info';
import { catalogData } from './catalog-id';
import { selectionQuery } from './queries';

export const selectionRoute = defineRoute({
  path: paths.selection.pattern,
  data: ({ id }: Params<typeof paths.selection.pattern>) =>
    catalogData('selection', id, (id) => ({ selection: selectionQuery(id) })),
  title: ({ selection }) => selection.name,
  description: ({ selection: { name, description } }) =>
    description || `${name} — подборка магазина «${STORE_NAME}»`,
  page: () => import('./SelectionPage'),
  server: SERVER && {
    head: ({ selection }) => selection && selectionHead(selection),
    indexable: true,
    cache: 'public',
  },
});
