import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';
import { storeHead } from './heads';
import { carouselQuery, homeProductsQuery, homeSectionsQuery, selectionsQuery } from './queries';

export const homeRoute = defineRoute({
  path: paths.home.pattern,
  data: () => ({
    deferred: {
      carousel: carouselQuery,
      selections: selectionsQuery,
      sections: homeSectionsQuery,
      products: homeProductsQuery,
    },
  }),
  title: 'Главная',
  page: () => import('./HomePage'),
  server: SERVER && { head: storeHead, indexable: true, cache: 'public' },
});
