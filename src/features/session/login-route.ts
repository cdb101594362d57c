import { SERVER, defineRoute } from '../../ui/route';

export const loginRoute = defineRoute({
  path: '/login',
  title: 'Вход',
  page: () => import('./LoginPage'),
  server: SERVER && { indexable: false, cache: 'private' },
});
