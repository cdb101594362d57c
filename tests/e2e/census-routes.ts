// The issue 26 census's 12 routes, each of the shop's screens as a shopper reaches it: the
// controls census and the phone widths look at the same pages.

/** A product whose stock is 0 in the stub's catalogue (stub-server/fixtures/catalog.ts). */
export const SOLD_OUT = '/product/5';

export const CENSUS_ROUTES = [
  '/',
  '/catalog',
  '/section/1',
  '/product/7',
  SOLD_OUT,
  '/search?q=мал',
  '/order',
  '/commit',
  '/order_status',
  '/news',
  '/policy',
  '/login/',
];
