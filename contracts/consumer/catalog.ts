// Catalogue calls (src/api/catalog.ts): home lists, products, sections, selections, search and
// breadcrumbs, with the 404s the app turns into its not-found pages.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import {
  crumbsBody,
  listedSelectionBody,
  productBody,
  sectionBody,
  sectionRefBody,
  selectionBody,
} from '../support/bodies';
import type { Section, Selection } from '../../src/api/types';
import { contract } from '../support/consumer';
import { failureStatus } from '../support/errors';
import {
  BERRIES,
  BILBERRY,
  COMING_SOON,
  EXOTIC_BERRIES,
  FOREST_BERRIES,
  JAM_WITHOUT_PHOTO,
  MISSING_ID,
  RASPBERRY,
  RASPBERRY_CRUMBS,
  SEASON_HITS,
  STRAWBERRY,
  STRAWBERRY_CRUMBS,
} from '../support/examples';
import { STATES } from '../support/states';

const NO_MATCH = 'ананас';
/** Lower case and a part of the name, as a shopper types it. */
const BILBERRY_QUERY = 'черника';
const FOREST_QUERY = 'лесные';

/** What section_retrieve and selection_retrieve give the page (their pact pins no more). */
const sectionPage = ({ name, children, products }: Section) => ({ name, children, products });
const selectionPage = ({ name, description, sections, products }: Selection) => ({
  name,
  description,
  sections,
  products,
});

export function catalogContracts(): void {
  describe('catalogue', () => {
    contract({
      description: 'GET /api/catalog/product: the home page products',
      given: [{ name: STATES.homeProduct, params: { id: RASPBERRY.id } }],
      calls: 'getHomeProducts',
      request: { method: 'GET', path: '/api/catalog/product' },
      response: { status: 200, body: M.eachLike(productBody(RASPBERRY)) },
      run: async ({ api }) => {
        expect(await api.getHomeProducts()).toEqual([RASPBERRY]);
      },
    });

    contract({
      description: `GET /api/catalog/product_retrieve/${RASPBERRY.id}: a product`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }],
      calls: 'getProduct',
      request: { method: 'GET', path: `/api/catalog/product_retrieve/${RASPBERRY.id}` },
      response: { status: 200, body: productBody(RASPBERRY) },
      run: async ({ api }) => {
        expect(await api.getProduct(RASPBERRY.id)).toEqual(RASPBERRY);
      },
    });

    contract({
      description: `GET /api/catalog/product_retrieve/${JAM_WITHOUT_PHOTO.id}: a product with no image, price or unit step`,
      given: [{ name: STATES.productWithNulls, params: { id: JAM_WITHOUT_PHOTO.id } }],
      calls: 'getProduct',
      request: { method: 'GET', path: `/api/catalog/product_retrieve/${JAM_WITHOUT_PHOTO.id}` },
      response: { status: 200, body: productBody(JAM_WITHOUT_PHOTO) },
      run: async ({ api }) => {
        const product = await api.getProduct(JAM_WITHOUT_PHOTO.id);
        expect(product).toEqual(JAM_WITHOUT_PHOTO);
        expect([product.image, product.price, product.unit_step]).toEqual([null, null, null]);
      },
    });

    contract({
      description: `GET /api/catalog/product_retrieve/${MISSING_ID}: no such product (404)`,
      given: [{ name: STATES.noProduct, params: { id: MISSING_ID } }],
      calls: 'getProduct',
      request: { method: 'GET', path: `/api/catalog/product_retrieve/${MISSING_ID}` },
      response: { status: 404 },
      run: async ({ api }) => {
        // 404 is what sends the shopper to /product-404/{id} (spec §8).
        expect(await failureStatus(api.getProduct(MISSING_ID))).toBe(404);
      },
    });

    contract({
      description: `GET /api/catalog/product_search?q=${BILBERRY_QUERY}: matching products`,
      given: [{ name: STATES.productFound, params: { q: BILBERRY_QUERY, name: BILBERRY.name } }],
      calls: 'searchProducts',
      request: { method: 'GET', path: '/api/catalog/product_search', query: { q: BILBERRY_QUERY } },
      response: { status: 200, body: M.eachLike(productBody(BILBERRY)) },
      run: async ({ api }) => {
        expect(await api.searchProducts(BILBERRY_QUERY)).toEqual([BILBERRY]);
      },
    });

    contract({
      description: `GET /api/catalog/product_search?q=${NO_MATCH}: nothing found`,
      given: [{ name: STATES.noProductMatches, params: { q: NO_MATCH } }],
      calls: 'searchProducts',
      request: { method: 'GET', path: '/api/catalog/product_search', query: { q: NO_MATCH } },
      response: { status: 200, body: [] },
      run: async ({ api }) => {
        expect(await api.searchProducts(NO_MATCH)).toEqual([]);
      },
    });

    contract({
      description: `GET /api/catalog/product_breadcrumbs/${RASPBERRY.id}: the sections above a product`,
      given: [{ name: STATES.product, params: { id: RASPBERRY.id } }],
      calls: 'getProductBreadcrumbs',
      request: { method: 'GET', path: `/api/catalog/product_breadcrumbs/${RASPBERRY.id}` },
      response: { status: 200, body: crumbsBody(RASPBERRY_CRUMBS) },
      run: async ({ api }) => {
        expect(await api.getProductBreadcrumbs(RASPBERRY.id)).toEqual(RASPBERRY_CRUMBS);
      },
    });

    contract({
      description: 'GET /api/catalog/section: the home page sections',
      given: [{ name: STATES.homeSection, params: { id: FOREST_BERRIES.id } }],
      calls: 'getHomeSections',
      request: { method: 'GET', path: '/api/catalog/section' },
      response: { status: 200, body: M.eachLike(sectionRefBody(FOREST_BERRIES)) },
      run: async ({ api }) => {
        expect(await api.getHomeSections()).toEqual([FOREST_BERRIES]);
      },
    });

    contract({
      description: 'GET /api/catalog/section_root: the root sections',
      given: [{ name: STATES.rootSection, params: { id: BERRIES.id } }],
      calls: 'getRootSections',
      request: { method: 'GET', path: '/api/catalog/section_root' },
      response: { status: 200, body: M.eachLike(sectionRefBody(BERRIES)) },
      run: async ({ api }) => {
        expect(await api.getRootSections()).toEqual([BERRIES]);
      },
    });

    contract({
      description: `GET /api/catalog/section_retrieve/${STRAWBERRY.id}: a section with its child sections and products`,
      given: [{ name: STATES.section, params: { id: STRAWBERRY.id } }],
      calls: 'getSection',
      request: { method: 'GET', path: `/api/catalog/section_retrieve/${STRAWBERRY.id}` },
      response: { status: 200, body: sectionBody(STRAWBERRY) },
      run: async ({ api }) => {
        expect(await api.getSection(STRAWBERRY.id)).toEqual(sectionPage(STRAWBERRY));
      },
    });

    contract({
      description: `GET /api/catalog/section_retrieve/${EXOTIC_BERRIES.id}: an empty section`,
      given: [{ name: STATES.emptySection, params: { id: EXOTIC_BERRIES.id } }],
      calls: 'getSection',
      request: { method: 'GET', path: `/api/catalog/section_retrieve/${EXOTIC_BERRIES.id}` },
      // `children: []` and `products: []`, not null or left out: the page reads their length.
      response: { status: 200, body: sectionBody(EXOTIC_BERRIES) },
      run: async ({ api }) => {
        const section = await api.getSection(EXOTIC_BERRIES.id);
        expect(section).toEqual(sectionPage(EXOTIC_BERRIES));
        expect([section.children.length, section.products.length]).toEqual([0, 0]);
      },
    });

    contract({
      description: `GET /api/catalog/section_retrieve/${MISSING_ID}: no such section (404)`,
      given: [{ name: STATES.noSection, params: { id: MISSING_ID } }],
      calls: 'getSection',
      request: { method: 'GET', path: `/api/catalog/section_retrieve/${MISSING_ID}` },
      response: { status: 404 },
      run: async ({ api }) => {
        expect(await failureStatus(api.getSection(MISSING_ID))).toBe(404);
      },
    });

    contract({
      description: `GET /api/catalog/section_search?q=${FOREST_QUERY}: matching sections`,
      given: [
        { name: STATES.sectionFound, params: { q: FOREST_QUERY, name: FOREST_BERRIES.name } },
      ],
      calls: 'searchSections',
      request: { method: 'GET', path: '/api/catalog/section_search', query: { q: FOREST_QUERY } },
      response: { status: 200, body: M.eachLike(sectionRefBody(FOREST_BERRIES)) },
      run: async ({ api }) => {
        expect(await api.searchSections(FOREST_QUERY)).toEqual([FOREST_BERRIES]);
      },
    });

    contract({
      description: `GET /api/catalog/section_search?q=${NO_MATCH}: nothing found`,
      given: [{ name: STATES.noSectionMatches, params: { q: NO_MATCH } }],
      calls: 'searchSections',
      request: { method: 'GET', path: '/api/catalog/section_search', query: { q: NO_MATCH } },
      response: { status: 200, body: [] },
      run: async ({ api }) => {
        expect(await api.searchSections(NO_MATCH)).toEqual([]);
      },
    });

    contract({
      description: `GET /api/catalog/section_breadcrumbs/${STRAWBERRY.id}: the path down to a section`,
      given: [{ name: STATES.section, params: { id: STRAWBERRY.id } }],
      calls: 'getSectionBreadcrumbs',
      request: { method: 'GET', path: `/api/catalog/section_breadcrumbs/${STRAWBERRY.id}` },
      response: { status: 200, body: crumbsBody(STRAWBERRY_CRUMBS) },
      run: async ({ api }) => {
        expect(await api.getSectionBreadcrumbs(STRAWBERRY.id)).toEqual(STRAWBERRY_CRUMBS);
      },
    });

    contract({
      description: 'GET /api/catalog/selections: all selections',
      given: [{ name: STATES.selection, params: { id: SEASON_HITS.id } }],
      calls: 'getSelections',
      request: { method: 'GET', path: '/api/catalog/selections' },
      response: { status: 200, body: M.eachLike(listedSelectionBody(SEASON_HITS)) },
      run: async ({ api }) => {
        expect(await api.getSelections()).toEqual([SEASON_HITS]);
      },
    });

    contract({
      description: `GET /api/catalog/selection_retrieve/${SEASON_HITS.id}: a selection`,
      given: [{ name: STATES.selection, params: { id: SEASON_HITS.id } }],
      calls: 'getSelection',
      request: { method: 'GET', path: `/api/catalog/selection_retrieve/${SEASON_HITS.id}` },
      response: { status: 200, body: selectionBody(SEASON_HITS) },
      run: async ({ api }) => {
        expect(await api.getSelection(SEASON_HITS.id)).toEqual(selectionPage(SEASON_HITS));
      },
    });

    contract({
      description: `GET /api/catalog/selection_retrieve/${COMING_SOON.id}: an empty selection`,
      given: [{ name: STATES.emptySelection, params: { id: COMING_SOON.id } }],
      calls: 'getSelection',
      request: { method: 'GET', path: `/api/catalog/selection_retrieve/${COMING_SOON.id}` },
      response: { status: 200, body: selectionBody(COMING_SOON) },
      run: async ({ api }) => {
        const selection = await api.getSelection(COMING_SOON.id);
        expect(selection).toEqual(selectionPage(COMING_SOON));
        expect([selection.sections.length, selection.products.length]).toEqual([0, 0]);
      },
    });

    contract({
      description: `GET /api/catalog/selection_retrieve/${MISSING_ID}: no such selection (404)`,
      given: [{ name: STATES.noSelection, params: { id: MISSING_ID } }],
      calls: 'getSelection',
      request: { method: 'GET', path: `/api/catalog/selection_retrieve/${MISSING_ID}` },
      response: { status: 404 },
      run: async ({ api }) => {
        expect(await failureStatus(api.getSelection(MISSING_ID))).toBe(404);
      },
    });
  });
}
