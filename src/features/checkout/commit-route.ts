import { SERVER, defineRoute } from '../../ui/route';

export const commitRoute = defineRoute({
  path: '/commit',
  title: 'Подтверждение заказа',
  page: () => import('./CommitPage'),
  server: SERVER && { indexable: false, cache: 'private' },
});
