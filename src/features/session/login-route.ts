import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';

export const loginRoute = defineRoute({
  path: paths.login.pattern,
  title: 'Вход',
  page: () => import('./LoginPage'),
  server: SERVER && { indexable: false, cache: 'private' },
});
