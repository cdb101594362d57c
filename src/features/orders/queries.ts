import { getOrderHistory } from '../../api/orders';
import { query } from '../../ui/page-data';

/** The visitor's own orders: the server loads them with the visitor's cookies. */
export const orderHistoryQuery = query('catalog/order_history', getOrderHistory);
