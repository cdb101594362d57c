import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';
import { newsQuery } from './queries';

export const newsRoute = defineRoute({
  path: paths.news.pattern,
  data: () => ({ deferred: { news: newsQuery } }),
  title: 'Новости',
  page: () => import('./NewsPage'),
  server: SERVER && { indexable: true, cache: 'public' },
});
