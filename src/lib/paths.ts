// Every address of the shop's pages, in one table (as bulletproof-react's config/paths.ts): the
// routes take their patterns from it, and links, heads, redirects and the sitemap their addresses.
// An address is never written by hand elsewhere.

/** A page at one address: `paths.catalog()`; its route's pattern is `paths.catalog.pattern`. */
function fixed<P extends string>(pattern: P, address: string = pattern) {
  return Object.assign(() => address, { pattern });
}

/** A page of one thing of the catalogue: `paths.product(7)` is `/product/7`. */
function byId<P extends `/${string}/:id`>(pattern: P) {
  return Object.assign(
    (id: number | string) => pattern.replace(':id', encodeURIComponent(String(id))),
    { pattern },
  );
}

/** `?name=value&…` of the parameters that are set, each value encoded; empty when none is. */
function query(params: Record<string, string | undefined>): string {
  const set = Object.entries(params).filter(([, value]) => value !== undefined && value !== '');
  if (set.length === 0) return '';
  return `?${set.map(([name, value]) => `${name}=${encodeURIComponent(value ?? '')}`).join('&')}`;
}

export const paths = {
  home: fixed('/'),
  catalog: fixed('/catalog'),
  section: byId('/section/:id'),
  selection: byId('/selection/:id'),
  product: byId('/product/:id'),
  /** The search, with its words (`q`) and the page it was opened from (`from`) when set. */
  search: Object.assign((params: { q?: string; from?: string } = {}) => `/search${query(params)}`, {
    pattern: '/search' as const,
  }),
  basket: fixed('/order'),
  commit: fixed('/commit'),
  orders: fixed('/order_status'),
  policy: fixed('/policy'),
  news: fixed('/news'),
  /** The router opens it with or without the slash; the spec names it `/login/`. */
  login: fixed('/login', '/login/'),
  /** Spec §8: where a missing section, selection or product sends the shopper (a 404 page). */
  missing: {
    section: byId('/section-404/:id'),
    selection: byId('/selection-404/:id'),
    product: byId('/product-404/:id'),
  },
} as const;
