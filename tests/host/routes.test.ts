// The route table declares each page once: what the server's head, robots.txt, the sitemap and
// the browser's title read. A page missing a declaration, or a crawler told otherwise, fails here.
// In the server project: the server-side declarations are left out of the browser's build (and
// of the unit project's, which is built as the browser's).
import { describe, expect, it } from 'vitest';
import type { Api } from '../../src/api/http';
import { pageSource } from '../../src/app/page-source';
import { type PageRoute, ROUTES } from '../../src/app/routes';
import { robotsTxt, sitemapPaths } from '../../src/app/sitemap';

/** What the server alone reads of a route (its build keeps it). */
const serverSide = (route: PageRoute) => route.server || { indexable: undefined, cache: undefined };

const disallowed = (robots: string) =>
  robots
    .split('\n')
    .filter((line) => line.startsWith('Disallow: '))
    .map((line) => line.slice('Disallow: '.length));

describe('the route table', () => {
  it.each(ROUTES.map((route) => [route.path, route]))(
    '%s declares its title, indexability and cache policy',
    (_path, route) => {
      expect(['string', 'function']).toContain(typeof route.title);
      if (typeof route.title === 'string') expect(route.title).not.toBe('');
      expect(typeof serverSide(route).indexable).toBe('boolean');
      expect(['public', 'private']).toContain(serverSide(route).cache);
    },
  );

  it.each(ROUTES.map((route) => [route.path, route]))(
    '%s names its page module as the build manifest does (the server preloads it by that name)',
    async (_path, route) => {
      const source = (await pageSource(route.page)) ?? '';
      expect(source).toMatch(/^src\/features\/[a-z]+\/[A-Za-z]+Page\.tsx$/);
      // The very module the route loads: a stale name would preload another page's chunks.
      const named = (await import(/* @vite-ignore */ `../../${source}`)) as { default: unknown };
      expect((await route.page.preload()).default).toBe(named.default);
    },
  );

  it('keeps the visitor’s own pages private and the catalogue public (issue 25)', () => {
    const byCache = (cache: string) =>
      ROUTES.filter((route) => serverSide(route).cache === cache).map((route) => route.path);
    expect(byCache('private').sort()).toEqual(['/commit', '/login', '/order', '/order_status']);
    expect(byCache('public').sort()).toEqual(
      [
        '/',
        '/catalog',
        '/section/:id',
        '/selection/:id',
        '/product/:id',
        '/search',
        '/news',
        '/policy',
      ].sort(),
    );
  });
});

describe('robots.txt', () => {
  it('disallows the API and exactly the routes not worth an index', () => {
    const robots = robotsTxt('https://shop.example/sitemap.xml');
    const pages = ROUTES.filter((route) => !serverSide(route).indexable).map((route) => route.path);
    expect(disallowed(robots)).toEqual(['/api/', ...pages]);
    // What crawlers were told before the table said it: a changed declaration shows here.
    expect(disallowed(robots).sort()).toEqual(
      ['/api/', '/commit', '/login', '/order', '/order_status', '/search'].sort(),
    );
    expect(robots).toContain('Sitemap: https://shop.example/sitemap.xml');
  });
});

describe('the sitemap', () => {
  it('lists each indexable route: the fixed ones, and one page per thing of the catalogue', async () => {
    // A catalogue of one root section (1) with a child (2) holding product 7, and selection 3.
    const answers: Record<string, unknown> = {
      '/catalog/selections': [{ id: 3, name: 'Хиты', sections: [], products: [] }],
      '/catalog/section_root': [{ id: 1 }],
      '/catalog/section_retrieve/1': { id: 1, children: [{ id: 2 }], products: [] },
      '/catalog/section_retrieve/2': { id: 2, children: [], products: [{ id: 7 }] },
    };
    const api = (async (request: string) => {
      if (!(request in answers)) throw new Error(`unexpected call ${request}`);
      return answers[request];
    }) as unknown as Api;
    const paths = await sitemapPaths(api);
    expect(paths.sort()).toEqual(
      [
        '/',
        '/catalog',
        '/section/1',
        '/section/2',
        '/selection/3',
        '/product/7',
        '/news',
        '/policy',
      ].sort(),
    );
    for (const route of ROUTES.filter((route) => !serverSide(route).indexable)) {
      expect(paths.some((path) => path.startsWith(route.path))).toBe(false);
    }
  });
});
