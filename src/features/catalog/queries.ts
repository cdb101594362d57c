// The catalogue's public data, one query per thing a page shows. The route table
// (src/app/routes.tsx) names which a route needs, so the server loads them before it renders and
// a client-side navigation starts them before the page's code has arrived.
import {
  getHomeProducts,
  getHomeSections,
  getProduct,
  getProductBreadcrumbs,
  getRootSections,
  getSection,
  getSectionBreadcrumbs,
  getSelection,
  getSelections,
} from '../../api/catalog';
import { getCarousel } from '../../api/content';
import { sharedQuery } from '../../ui/page-data';

export const carouselQuery = sharedQuery('content/carousel', (api) => getCarousel(api));
export const selectionsQuery = sharedQuery('catalog/selections', (api) => getSelections(api));
export const homeSectionsQuery = sharedQuery('catalog/section', (api) => getHomeSections(api));
export const homeProductsQuery = sharedQuery('catalog/product', (api) => getHomeProducts(api));
export const rootSectionsQuery = sharedQuery('catalog/section_root', (api) => getRootSections(api));

// Failed breadcrumbs (null) do not hide the section or product: it can still be bought.
export const sectionQuery = (id: number) =>
  sharedQuery(`catalog/section/${id}`, (api) =>
    Promise.all([getSection(id, api), getSectionBreadcrumbs(id, api).catch(() => null)]),
  );

export const productQuery = (id: number) =>
  sharedQuery(`catalog/product/${id}`, (api) =>
    Promise.all([getProduct(id, api), getProductBreadcrumbs(id, api).catch(() => null)]),
  );

export const selectionQuery = (id: number) =>
  sharedQuery(`catalog/selection/${id}`, (api) => getSelection(id, api));
