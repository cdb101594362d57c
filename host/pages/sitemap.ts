// /robots.txt and /sitemap.xml (src/app/sitemap.ts): the sitemap's walk of the catalogue is
// kept for a few minutes, so a crawler's visits do not walk the whole catalogue each time.
import express, { type Request, type Router } from 'express';
import type { PageRenderer } from './render.ts';
import { requestOrigin } from '../process/request-scheme.ts';
import { visitorOf } from '../forms/visitor.ts';

const CACHE_MS = 5 * 60_000;

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export interface SitemapOptions {
  /** The public origin, when set (SITE_URL); else the request's. */
  siteUrl: string | undefined;
  /** How long the walk of the catalogue may take before the sitemap answers 503. */
  timeoutMs: number;
}

export function sitemapRoutes(
  renderer: PageRenderer,
  { siteUrl, timeoutMs }: SitemapOptions,
): Router {
  const router = express.Router();
  const origin = (req: Request) => siteUrl ?? requestOrigin(req);
  let cached: { at: number; paths: Promise<string[]> } | null = null;

  router.get('/robots.txt', async (req, res, next) => {
    try {
      const { robotsTxt } = (await renderer.served()).entry;
      res.type('text/plain; charset=utf-8').set('Cache-Control', 'public, max-age=3600');
      res.send(robotsTxt(`${origin(req)}/sitemap.xml`));
    } catch (error) {
      next(error);
    }
  });

  // The last walk that worked: a walk that fails (the backend down or late) answers with it.
  let lastGood: string[] | null = null;

  router.get('/sitemap.xml', async (req, res) => {
    let paths: string[];
    try {
      if (!cached || Date.now() - cached.at > CACHE_MS) {
        const { entry, shop } = await renderer.served();
        // Anonymous calls with a budget of their own: the walk is shared by every crawler that
        // asks meanwhile, so it is not ended with the request that started it.
        const calls = shop.startCalls({ ...visitorOf(entry, req), cookies: {} }, timeoutMs);
        const walk = entry.sitemapPaths(calls.api);
        void walk.finally(calls.end).catch(() => {});
        cached = { at: Date.now(), paths: walk };
        // A failed walk is not kept: the next crawler's visit tries again.
        walk.then(
          (found) => (lastGood = found),
          () => (cached = null),
        );
      }
      paths = await cached.paths;
    } catch {
      if (!lastGood) {
        // Never walked yet: a crawler is told to come back, not given a sitemap without the
        // catalogue.
        res.status(503).set('Retry-After', '300').type('text/plain; charset=utf-8');
        res.send('Каталог сейчас недоступен');
        return;
      }
      paths = lastGood;
    }
    const base = origin(req);
    res.type('application/xml; charset=utf-8').set('Cache-Control', 'public, max-age=300');
    res.send(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...paths.map((path) => `  <url><loc>${escapeXml(base + path)}</loc></url>`),
        '</urlset>',
        '',
      ].join('\n'),
    );
  });
  return router;
}
