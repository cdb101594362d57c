// What crawlers are told (robots.txt, sitemap.xml), read from the route table: which pages are
// worth an index is the routes' `server.indexable`. The sitemap finds every section, selection and
// product through the API the way a shopper finds them: from the root sections down, and
// through the selections.
import { getRootSections, getSection, getSelections } from '../api/catalog';
import type { Api } from '../api/http';
import { paths } from '../lib/paths';
import { type PageRoute, ROUTES } from './routes';

const indexable = (route: PageRoute) => route.server !== false && route.server.indexable;

/** The site path a route pattern names (`/order`), up to its first parameter (`/product/`). */
const pathOf = (pattern: string) => pattern.replace(/:.*$/, '');

/** robots.txt: the routes not worth an index are disallowed, and the API. */
export function robotsTxt(sitemapUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /api/',
    ...ROUTES.filter((route) => !indexable(route)).map(
      (route) => `Disallow: ${pathOf(route.path)}`,
    ),
    '',
    `Sitemap: ${sitemapUrl}`,
    '',
  ].join('\n');
}

/** The page of every section, selection and product the catalogue has, by its route's pattern. */
async function cataloguePages(api: Api): Promise<Record<string, string[]>> {
  const sections = new Set<number>();
  const products = new Set<number>();
  const selections = await getSelections(api);
  for (const selection of selections) {
    for (const product of selection.products) products.add(product.id);
  }
  let next = [
    ...(await getRootSections(api)).map((section) => section.id),
    ...selections.flatMap((selection) => selection.sections.map((section) => section.id)),
  ];
  // Level by level, each level's sections at once; a section is asked once however it is reached.
  while (next.length > 0) {
    const level = [...new Set(next)].filter((id) => !sections.has(id));
    for (const id of level) sections.add(id);
    const found = await Promise.all(level.map((id) => getSection(id, api)));
    next = [];
    for (const section of found) {
      for (const product of section.products) products.add(product.id);
      next.push(...section.children.map((child) => child.id));
    }
  }
  return {
    [paths.section.pattern]: [...sections].map(paths.section),
    [paths.selection.pattern]: selections.map((selection) => paths.selection(selection.id)),
    [paths.product.pattern]: [...products].map(paths.product),
  };
}

/**
 * Site paths for /sitemap.xml: each indexable route in the table's order, a route with an id
 * once for each thing of the catalogue it shows.
 */
export async function sitemapPaths(api: Api): Promise<string[]> {
  const pages = await cataloguePages(api);
  return ROUTES.filter(indexable).flatMap((route) => {
    if (!route.path.includes(':')) return [route.path];
    const found = pages[route.path];
    if (!found) throw new Error(`sitemap: no walk finds the pages of ${route.path}`);
    return found;
  });
}
