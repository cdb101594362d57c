import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';
import { orderHistoryQuery } from './queries';

// The visitor's own orders: the server loads them with the visitor's cookies, and the page is
// never cached.
export const ordersRoute = defineRoute({
  path: paths.orders.pattern,
  data: () => ({ deferred: { history: orderHistoryQuery } }),
  title: 'Заказы',
  page: () => import('./OrderStatusPage'),
  server: SERVER && { indexable: false, cache: 'private' },
});
