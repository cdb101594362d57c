// What a request is called in the metrics and the log: the route it took, from a closed list,
// never its path (whose ids, queries and typos are without number: a metric labelled by path
// grows a series for each). Pages by their route as declared (`/product/:id`), /api by the
// call's name in src/api's table, everything else by what serves it.
import type { Request } from 'express';
import type { Entry } from '../app-entry.ts';
import { CHANGE_HOOK_PATH } from '../backend/change-hook.ts';

export type Handler = 'page' | 'api' | 'form' | 'image' | 'media' | 'asset' | 'other';

export interface RouteLabel {
  handler: Handler;
  route: string;
}

/** What the naming uses of the app's code. */
export type RouteApp = Pick<Entry, 'pageRoute' | 'callPattern' | 'FORMS' | 'IMAGE_ROUTE'>;

/** The host's own addresses that are not pages (host/app.ts and its routers). */
const OWN = new Set(['/healthz', '/robots.txt', '/sitemap.xml', '/rum', CHANGE_HOOK_PATH]);
/** The host's own forms (host/forms/settings-forms.ts). */
const SETTINGS_FORMS = ['/cookie-consent', '/theme'];

export function routeNamer(app: RouteApp): (req: Request) => RouteLabel {
  const forms = new Set([...Object.keys(app.FORMS), ...SETTINGS_FORMS].map(withoutSlash));
  const image = `${app.IMAGE_ROUTE.toLowerCase()}/`;
  return (req) => {
    // As it came: a router on the way may have rewritten req.url (the embedded stub does).
    const asSent = req.originalUrl.split('?')[0] ?? '';
    // Express matches its routes in any letter case and with or without a last slash.
    const path = withoutSlash(asSent.toLowerCase());
    if (path === '/api' || path.startsWith('/api/')) {
      const pattern = app.callPattern(req.method, asSent.slice('/api'.length));
      return { handler: 'api', route: pattern ? `/api${pattern}` : '/api/(other)' };
    }
    if (path.startsWith('/media/')) return { handler: 'media', route: '/media' };
    if (path.startsWith(image)) return { handler: 'image', route: app.IMAGE_ROUTE };
    if (path.startsWith('/assets/')) return { handler: 'asset', route: '/assets' };
    if (req.method === 'POST' && forms.has(path)) return { handler: 'form', route: path };
    if (OWN.has(path)) return { handler: 'other', route: path };
    if (/\.[a-z0-9]+$/.test(path)) return { handler: 'asset', route: '/(file)' };
    return { handler: 'page', route: app.pageRoute(req.originalUrl) ?? '(not found)' };
  };
}

function withoutSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
