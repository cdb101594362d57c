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
import { query } from '../../ui/page-data';

export const carouselQuery = query('content/carousel', () => getCarousel());
export const selectionsQuery = query('catalog/selections', () => getSelections());
export const homeSectionsQuery = query('catalog/section', () => getHomeSections());
export const homeProductsQuery = query('catalog/product', () => getHomeProducts());
export const rootSectionsQuery = query('catalog/section_root', () => getRootSections());

// Failed breadcrumbs (null) do not hide the section or product: it can still be bought.
export const sectionQuery = (id: number) =>
  query(`catalog/section/${id}`, () =>
    Promise.all([getSection(id), getSectionBreadcrumbs(id).catch(() => null)]),
  );

export const productQuery = (id: number) =>
  query(`catalog/product/${id}`, () =>
    Promise.all([getProduct(id), getProductBreadcrumbs(id).catch(() => null)]),
  );

export const selectionQuery = (id: number) =>
  query(`catalog/selection/${id}`, () => getSelection(id));
