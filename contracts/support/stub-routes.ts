// The stub's /api routes, read from its express router stack (no hand-kept list to go stale):
// each registered path with its methods, and the matcher express itself uses for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStubApp } from '../../stub-server/app';

interface Layer {
  name: string;
  regexp: RegExp;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

export interface StubRoute {
  /** `*` for a handler of every method (`router.all`, `router.use`). */
  method: string;
  /** As registered, e.g. `/catalog/basket/:id(\\d+)` (under /api), or the mount's pattern. */
  path: string;
  matches: (apiPath: string) => boolean;
}

// However a handler is registered (get, all, use), it counts: a route added any way must be
// exercised by an interaction. A `use` without a path (the session, the CSRF check) matches
// every request, so any interaction exercises it.
function routesIn(stack: Layer[]): StubRoute[] {
  return stack.flatMap((layer) => {
    const matches = (apiPath: string) => layer.regexp.test(apiPath);
    if (layer.route) {
      const { path, methods } = layer.route;
      return Object.keys(methods).map((method) => ({
        method: method === '_all' ? '*' : method.toUpperCase(),
        path,
        matches,
      }));
    }
    if (layer.handle.stack) return routesIn(layer.handle.stack);
    return [{ method: '*', path: String(layer.regexp), matches }];
  });
}

export function stubApiRoutes(): StubRoute[] {
  const dir = mkdtempSync(join(tmpdir(), 'berries-routes-'));
  try {
    const { app } = createStubApp({ dataFile: join(dir, 'db.json') });
    const stack = (app as unknown as { _router: { stack: Layer[] } })._router.stack;
    const api = stack.filter((layer) => layer.name === 'router' && layer.regexp.test('/api'));
    return routesIn(api);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
