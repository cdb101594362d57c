// The API calls the first screen of each route makes as soon as it renders. index.html starts
// them while the app's code is still downloading (the preload script that vite.config.ts writes),
// and src/api/first-calls.ts hands their answers to the app: on a slow phone the data is there
// when the page first renders, instead of one round trip after it.
//
// Paths are relative to /api. `{name}` stands for the route's `:name` segment or, when the route
// has none, the page URL's `name` query parameter, cut and trimmed as the search does with its
// query (queryOf in src/features/search/query.ts); a call whose value is empty is left out.
// A call listed here that the app does not make is wasted; an e2e test checks that each is used.

export { MAX_QUERY_LENGTH } from '../features/search/query';

/** Made on every route: the start-up basket (src/app/startup.ts). */
export const CALLS_ON_EVERY_ROUTE = ['/catalog/basket'];

/** By route pattern, as in src/app/routes.tsx. */
export const FIRST_CALLS: Record<string, string[]> = {
  '/': ['/content/carousel', '/catalog/selections', '/catalog/section', '/catalog/product'],
  '/catalog': ['/catalog/section_root'],
  '/section/:id': ['/catalog/section_retrieve/{id}', '/catalog/section_breadcrumbs/{id}'],
  '/selection/:id': ['/catalog/selection_retrieve/{id}'],
  '/product/:id': ['/catalog/product_retrieve/{id}', '/catalog/product_breadcrumbs/{id}'],
  '/search': ['/catalog/section_search?q={q}', '/catalog/product_search?q={q}'],
  '/news': ['/telegram/news'],
  '/policy': ['/content/policy'],
};
