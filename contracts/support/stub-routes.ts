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
  method: string;
  /** As registered, e.g. `/catalog/basket/:id(\\d+)` (under /api). */
  path: string;
  matches: (apiPath: string) => boolean;
}

function routesIn(stack: Layer[]): StubRoute[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const { path, methods } = layer.route;
      return Object.keys(methods)
        .filter((method) => method !== '_all')
        .map((method) => ({
          method: method.toUpperCase(),
          path,
          matches: (apiPath: string) => layer.regexp.test(apiPath),
        }));
    }
    return layer.handle.stack ? routesIn(layer.handle.stack) : [];
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
