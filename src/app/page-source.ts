// Which module a route's page is, by the path Vite's build manifest names it with: the server
// preloads the page's chunks by it. Not written in the routes: found among the feature folders'
// page modules (Vite's glob of them, keyed by path) as the one the route loads. Only the server
// imports this module.
import type { Page } from '../ui/route';

const PAGE_MODULES = import.meta.glob<{ default: unknown }>('/src/features/*/*Page.tsx');

const sources = new Map<Page, Promise<string | undefined>>();

async function findSource(page: Page): Promise<string | undefined> {
  const { default: component } = await page.preload();
  for (const [path, load] of Object.entries(PAGE_MODULES)) {
    if ((await load()).default === component) return path.replace(/^\//, '');
  }
  return undefined;
}

/** The page module's path from the project's root (`src/features/catalog/HomePage.tsx`). */
export function pageSource(page: Page): Promise<string | undefined> {
  let source = sources.get(page);
  if (!source) {
    source = findSource(page);
    sources.set(page, source);
  }
  return source;
}
