import { SERVER, defineRoute } from '../../ui/route';
import { newsQuery } from './queries';

export const newsRoute = defineRoute({
  path: '/news',
  data: () => ({ queries: { news: newsQuery } }),
  title: 'Новости',
  page: () => import('./NewsPage'),
  server: SERVER && { indexable: true, cache: 'public' },
});
