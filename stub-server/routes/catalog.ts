// Catalogue calls: home lists, sections, products, selections, search and breadcrumbs.
import express, { type Request, type Router } from 'express';
import type { StubContext } from '../context.ts';
import { defineRoute, pathId } from '../http.ts';
import { searchByName } from '../search.ts';
import {
  productOr404,
  productsByIds,
  sectionCrumbs,
  sectionOr404,
  sectionsByIds,
  selectionOr404,
  toProduct,
  toSection,
  toSectionRef,
  toSelection,
} from '../serializers.ts';

/** `?q=`: the first value when repeated, '' when missing. */
function queryText(req: Request): string {
  const value = req.query.q;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

export function catalogRoutes({ store }: StubContext): Router {
  const router = express.Router();
  const data = () => store.data;

  defineRoute(router, '/catalog/product', {
    get: (_req, res) => {
      res.json(productsByIds(data(), data().home.product_ids));
    },
  });
  defineRoute(router, '/catalog/product_retrieve/:id(\\d+)', {
    get: (req, res) => {
      res.json(toProduct(productOr404(data(), pathId(req))));
    },
  });
  defineRoute(router, '/catalog/product_search', {
    get: (req, res) => {
      res.json(searchByName(data().products, queryText(req)).map(toProduct));
    },
  });
  defineRoute(router, '/catalog/product_breadcrumbs/:id(\\d+)', {
    get: (req, res) => {
      const product = productOr404(data(), pathId(req));
      res.json(sectionCrumbs(data(), product.section_id));
    },
  });
  defineRoute(router, '/catalog/section', {
    get: (_req, res) => {
      res.json(sectionsByIds(data(), data().home.section_ids));
    },
  });
  defineRoute(router, '/catalog/section_root', {
    get: (_req, res) => {
      res.json(
        data()
          .sections.filter((section) => section.parent_id === null)
          .map(toSectionRef),
      );
    },
  });
  defineRoute(router, '/catalog/section_retrieve/:id(\\d+)', {
    get: (req, res) => {
      res.json(toSection(data(), sectionOr404(data(), pathId(req))));
    },
  });
  defineRoute(router, '/catalog/section_search', {
    get: (req, res) => {
      res.json(searchByName(data().sections, queryText(req)).map(toSectionRef));
    },
  });
  defineRoute(router, '/catalog/section_breadcrumbs/:id(\\d+)', {
    get: (req, res) => {
      const section = sectionOr404(data(), pathId(req));
      res.json(sectionCrumbs(data(), section.id));
    },
  });
  defineRoute(router, '/catalog/selections', {
    get: (_req, res) => {
      res.json(data().selections.map((selection) => toSelection(data(), selection)));
    },
  });
  defineRoute(router, '/catalog/selection_retrieve/:id(\\d+)', {
    get: (req, res) => {
      res.json(toSelection(data(), selectionOr404(data(), pathId(req))));
    },
  });
  return router;
}
