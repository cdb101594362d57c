import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';

export const commitRoute = defineRoute({
  path: paths.commit.pattern,
  title: 'Подтверждение заказа',
  page: () => import('./CommitPage'),
  server: SERVER && { indexable: false, cache: 'private' },
});
