// What a shopper's browser reports of the speed it saw (src/app/rum.ts sends it,
// host/process/rum.ts checks and counts it): the web-vitals library's five figures, each with the
// kind of page and whether the view was the page's full load or a view the app made without one.

/** The beacon's address: same-origin, so the CSP's connect-src 'self' covers it. */
export const RUM_PATH = '/rum';

/**
 * Every kind of page (one per route of src/app/routes.tsx, and the 404 page). The server refuses
 * a beacon of any other: its label has no more values than these.
 */
export const PAGE_KINDS = [
  'home',
  'catalog',
  'section',
  'selection',
  'product',
  'search',
  'basket',
  'checkout',
  'orders',
  'news',
  'policy',
  'login',
  'not_found',
] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** The kind of the page a route shows, by the route's path. */
const KIND_BY_ROUTE: Record<string, PageKind> = {
  '/': 'home',
  '/catalog': 'catalog',
  '/section/:id': 'section',
  '/selection/:id': 'selection',
  '/product/:id': 'product',
  '/search': 'search',
  '/order': 'basket',
  '/commit': 'checkout',
  '/order_status': 'orders',
  '/news': 'news',
  '/policy': 'policy',
  '/login': 'login',
};

/** The kind of the page of a route (its path, as declared), or of the 404 page (null). */
export function pageKind(routePath: string | null | undefined): PageKind {
  return (routePath && KIND_BY_ROUTE[routePath]) || 'not_found';
}

/**
 * The figures, each with the most a real one can be: times in milliseconds (two minutes is
 * longer than any shopper waits), CLS unitless (a page that shifts its whole height ten times).
 */
export const RUM_METRICS = {
  LCP: { max: 120_000 },
  INP: { max: 120_000 },
  CLS: { max: 10 },
  FCP: { max: 120_000 },
  TTFB: { max: 120_000 },
} as const;
export type RumMetricName = keyof typeof RUM_METRICS;

/** One figure as the browser sends it; a beacon is a JSON array of them. */
export interface RumSample {
  name: RumMetricName;
  value: number;
  kind: PageKind;
  /** The page's full load, or a view the app made in place (a link followed without a load). */
  view: 'load' | 'app';
}

/** The most figures one beacon holds: five of the load, INP and CLS of its views. */
export const RUM_MAX_SAMPLES = 12;
