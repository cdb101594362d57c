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
import type { Breadcrumbs, Selection } from '../../api/types';
import {
  HOME_LISTS,
  idsShown,
  productShown,
  ROOT_SECTIONS,
  sectionShown,
  selectionShown,
  SLIDES_SHOWN,
} from '../../lib/shown-data';
import { sharedQuery } from '../../ui/page-data';

/** A selection, its sections and its products. */
const selectionShows = (selection: Selection) => [
  selectionShown(selection.id),
  ...idsShown(selection.sections, sectionShown),
  ...idsShown(selection.products, productShown),
];
const crumbsShow = (crumbs: Breadcrumbs | null) => idsShown(crumbs ?? [], sectionShown);

export const carouselQuery = sharedQuery(
  'content/carousel',
  (api) => getCarousel(api),
  () => [SLIDES_SHOWN],
);
export const selectionsQuery = sharedQuery(
  'catalog/selections',
  (api) => getSelections(api),
  (selections) => [HOME_LISTS, ...selections.flatMap(selectionShows)],
);
export const homeSectionsQuery = sharedQuery(
  'catalog/section',
  (api) => getHomeSections(api),
  (sections) => [HOME_LISTS, ...idsShown(sections, sectionShown)],
);
export const homeProductsQuery = sharedQuery(
  'catalog/product',
  (api) => getHomeProducts(api),
  (products) => [HOME_LISTS, ...idsShown(products, productShown)],
);
export const rootSectionsQuery = sharedQuery(
  'catalog/section_root',
  (api) => getRootSections(api),
  (sections) => [ROOT_SECTIONS, ...idsShown(sections, sectionShown)],
);

// Failed breadcrumbs (null) do not hide the section or product: it can still be bought.
export const sectionQuery = (id: number) =>
  sharedQuery(
    `catalog/section/${id}`,
    (api) => Promise.all([getSection(id, api), getSectionBreadcrumbs(id, api).catch(() => null)]),
    ([section, crumbs]) => [
      sectionShown(section.id),
      ...idsShown(section.children, sectionShown),
      ...idsShown(section.products, productShown),
      ...crumbsShow(crumbs),
    ],
  );

export const productQuery = (id: number) =>
  sharedQuery(
    `catalog/product/${id}`,
    (api) => Promise.all([getProduct(id, api), getProductBreadcrumbs(id, api).catch(() => null)]),
    ([product, crumbs]) => [productShown(product.id), ...crumbsShow(crumbs)],
  );

export const selectionQuery = (id: number) =>
  sharedQuery(`catalog/selection/${id}`, (api) => getSelection(id, api), selectionShows);
