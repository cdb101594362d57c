import { paths } from '../../lib/paths';
import { defineRoute, type Params, SERVER } from '../../ui/route';
import { sectionHead } from './heads';
import { STORE_NAME } from '../../lib/shop-info';
import { catalogData } from './catalog-id';
import { sectionQuery } from './queries';

export const sectionRoute = defineRoute({
  path: paths.section.pattern,
  // The query's key reloads the page when only the id changes (a child section, a breadcrumb).
  data: ({ id }: Params<typeof paths.section.pattern>) =>
    catalogData('section', id, (id) => ({ section: sectionQuery(id) })),
  title: ({ section: [section] }) => section.name,
  description: ({ section: [{ name, products }] }) =>
    `${name} в магазине «${STORE_NAME}»: ${products.length} ${products.length === 1 ? 'товар' : 'товаров'} с ценами и наличием.`,
  page: () => import('./SectionPage'),
  server: SERVER && {
    head: ({ section }, address) => section && sectionHead(...section, address),
    indexable: true,
    cache: 'public',
  },
});
