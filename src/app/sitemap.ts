// Every section, selection and product, found through the API the way a shopper finds them:
// from the root sections down, and through the selections.
import { getRootSections, getSection, getSelections } from '../api/catalog';
import type { Api } from '../api/http';

/** Site paths for /sitemap.xml: home, catalogue, then each section, selection and product. */
export async function sitemapPaths(api: Api): Promise<string[]> {
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
  return [
    '/',
    '/catalog',
    ...[...sections].map((id) => `/section/${id}`),
    ...selections.map((selection) => `/selection/${selection.id}`),
    ...[...products].map((id) => `/product/${id}`),
    '/news',
    '/policy',
  ];
}
