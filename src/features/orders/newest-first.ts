import type { Order } from '../../api/types';

// The history's order. The server answers newest first already; this keeps it so whatever it
// sends, without letting one bad timestamp make the order depend on the sort's steps.

/** A date that does not parse counts as the oldest, rather than making the order random. */
function timeOf(order: Order): number {
  const time = Date.parse(order.created_ts);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/**
 * Newest first, by date, then by id (a later order has a larger id). Every pair compares the
 * same way whatever the rest, so a bad timestamp cannot shuffle the others.
 */
export function newestFirst(orders: readonly Order[]): Order[] {
  return [...orders].sort((a, b) => {
    const [timeA, timeB] = [timeOf(a), timeOf(b)];
    if (timeA !== timeB) return timeB > timeA ? 1 : -1;
    return b.id - a.id;
  });
}
