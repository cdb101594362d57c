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

/**
 * A call, or a call whose answer names the first screen's largest picture: index.html asks for
 * that picture as soon as the answer arrives, before the page has rendered its <img>. `image`
 * lists where it may be in the answer (dotted paths, e.g. `0.image`); the first found is used.
 */
export type FirstCall = string | { path: string; image: string[] };

/** Made on every route: the start-up basket (src/app/startup.ts). */
export const CALLS_ON_EVERY_ROUTE: FirstCall[] = ['/catalog/basket'];

/** By route pattern, as in src/app/routes.tsx. */
export const FIRST_CALLS: Record<string, FirstCall[]> = {
  '/': [
    { path: '/content/carousel', image: ['0.image'] },
    '/catalog/selections',
    '/catalog/section',
    '/catalog/product',
  ],
  '/catalog': [{ path: '/catalog/section_root', image: ['0.image'] }],
  '/section/:id': [
    { path: '/catalog/section_retrieve/{id}', image: ['children.0.image', 'products.0.image'] },
    '/catalog/section_breadcrumbs/{id}',
  ],
  '/selection/:id': [
    { path: '/catalog/selection_retrieve/{id}', image: ['sections.0.image', 'products.0.image'] },
  ],
  '/product/:id': [
    { path: '/catalog/product_retrieve/{id}', image: ['image'] },
    '/catalog/product_breadcrumbs/{id}',
  ],
  '/search': [
    { path: '/catalog/section_search?q={q}', image: ['0.image'] },
    { path: '/catalog/product_search?q={q}', image: ['0.image'] },
  ],
  '/news': ['/telegram/news'],
  '/policy': ['/content/policy'],
};
