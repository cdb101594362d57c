import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';

// The basket is every page's (the server loads it for each, src/server-entry/entry-server.tsx).
export const basketRoute = defineRoute({
  path: paths.basket.pattern,
  title: 'Корзина',
  page: () => import('./BasketPage'),
  server: SERVER && { indexable: false, cache: 'private' },
});
