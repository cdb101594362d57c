import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import {
  CALLS_ON_EVERY_ROUTE,
  FIRST_CALLS,
  type FirstCall,
  MAX_QUERY_LENGTH,
} from './src/app/first-calls.ts';
import type * as StubApp from './stub-server/app.ts';

// `npm run dev`: Vite with hot reload and the stub mounted in the same process.
// `API_TARGET=https://backend.example npm run dev` proxies /api and /media to a real backend.
const apiTarget = process.env.API_TARGET;

function embeddedStub(): Plugin {
  return {
    name: 'berries-embedded-stub',
    apply: 'serve',
    async configureServer(server) {
      // Vite's own loader runs the TypeScript stub, so the config stays free of server code.
      const { createStubApp } = (await server.ssrLoadModule(
        '/stub-server/app.ts',
      )) as typeof StubApp;
      const { app } = createStubApp({});
      server.middlewares.use(app);
    },
  };
}

const ROUTES_FILE = path.resolve(import.meta.dirname, 'src/app/routes.tsx');

export interface RoutePage {
  /** A wouter pattern, e.g. `/section/:id`. */
  pattern: string;
  /** The page module's absolute path, without its extension. */
  module: string;
}

/** The lazy page of each route in src/app/routes.tsx, read from its source. */
export function readRouteTable(file = ROUTES_FILE): RoutePage[] {
  const source = readFileSync(file, 'utf8');
  const pages = new Map<string, string>();
  for (const [, name, specifier] of source.matchAll(
    /const (\w+) = page\(\(\) => import\('([^']+)'\)\);/g,
  )) {
    if (name && specifier) pages.set(name, path.resolve(path.dirname(file), specifier));
  }
  const routes: RoutePage[] = [];
  for (const [, pattern, name] of source.matchAll(/\['([^']+)', (\w+)\],/g)) {
    const module = name && pages.get(name);
    if (pattern && module) routes.push({ pattern, module });
  }
  return routes;
}

/** A wouter pattern as a regular expression source (named groups, optional trailing slash). */
function patternSource(pattern: string): string {
  const body = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((part) =>
      part.startsWith(':')
        ? `(?<${part.slice(1)}>[^/]+)`
        : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return `^${body}/?$`;
}

/**
 * The page of the first route loads only once the entry has run, and asks for its data only once
 * it renders. This inline script starts both while the entry still downloads, for whichever route
 * the shopper opened:
 * - its JS chunks and CSS: `<link rel="modulepreload">` and `rel="preload"`, which Vite's own
 *   loader then finds in the cache;
 * - its first API calls (src/app/first-calls.ts), with the stored token, as the app's HTTP client
 *   would send them; the client takes their answers (src/api/first-calls.ts).
 */
function preloadFirstRoute(): Plugin {
  const withoutExtension = (id: string) => id.replace(/\.[cm]?[jt]sx?$/, '');
  return {
    name: 'berries-preload-first-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const chunks = Object.values(bundle as OutputBundle).filter(
          (item): item is OutputChunk => item.type === 'chunk',
        );
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        // What the entry loads anyway needs no second mention.
        const initial = new Set<string>();
        const addStatic = (file: string, into: Set<string>) => {
          if (into.has(file)) return;
          into.add(file);
          for (const dep of byFile.get(file)?.imports ?? []) addStatic(dep, into);
        };
        for (const chunk of chunks) if (chunk.isEntry) addStatic(chunk.fileName, initial);

        // Each file once, routes by index: the table goes into every page's HTML.
        const files: string[] = [];
        const indexOf = (file: string) => {
          const at = files.indexOf(file);
          return at >= 0 ? at : files.push(file) - 1;
        };
        const table = new Map<string, [number[], number[], FirstCall[]]>();
        const routes = readRouteTable();
        // A reworded routes.tsx must not silently turn the preloading off.
        if (routes.length === 0) throw new Error(`preload: no routes read from ${ROUTES_FILE}`);
        for (const route of routes) {
          const page = chunks.find(
            (chunk) =>
              chunk.isDynamicEntry &&
              chunk.facadeModuleId &&
              withoutExtension(chunk.facadeModuleId) === route.module,
          );
          if (!page) throw new Error(`preload: no chunk for the page of ${route.pattern}`);
          const closure = new Set<string>();
          addStatic(page.fileName, closure);
          const js = [...closure].filter((file) => !initial.has(file));
          const css = new Set(
            js.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]),
          );
          table.set(patternSource(route.pattern), [
            js.map(indexOf),
            [...css].map(indexOf),
            FIRST_CALLS[route.pattern] ?? [],
          ]);
        }
        for (const pattern of Object.keys(FIRST_CALLS)) {
          if (!routes.some((route) => route.pattern === pattern)) {
            throw new Error(`first calls: ${pattern} is not a route of ${ROUTES_FILE}`);
          }
        }
        const script = `(() => {
  const files = ${JSON.stringify(files)};
  const routes = ${JSON.stringify([...table])};
  const everyRoute = ${JSON.stringify(CALLS_ON_EVERY_ROUTE)};
  let match = null;
  const found = routes.find(([pattern]) => (match = new RegExp(pattern, 'i').exec(location.pathname)));
  const link = (index, rel, as) => {
    const el = document.createElement('link');
    el.rel = rel;
    el.href = '/' + files[index];
    el.crossOrigin = '';
    if (as) el.as = as;
    document.head.appendChild(el);
  };
  if (found) {
    for (const index of found[1][0]) link(index, 'modulepreload');
    for (const index of found[1][1]) link(index, 'preload', 'style');
  }
  let token = null;
  try { token = localStorage.getItem('jwt'); } catch {}
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Token ' + token;
  const params = new URLSearchParams(location.search);
  const value = (name) => {
    const segment = match && match.groups && match.groups[name];
    return segment || encodeURIComponent((params.get(name) || '').slice(0, ${MAX_QUERY_LENGTH}).trim());
  };
  window.__firstCalls = [];
  // The picture an answer names, fetched as the page's <img> will fetch it.
  const preloadImage = (data, places) => {
    for (const place of places) {
      const src = place.split('.').reduce((at, key) => (at == null ? at : at[key]), data);
      if (typeof src !== 'string' || !src) continue;
      const el = document.createElement('link');
      el.rel = 'preload';
      el.as = 'image';
      el.href = src;
      el.fetchPriority = 'high';
      document.head.appendChild(el);
      return;
    }
  };
  for (const call of everyRoute.concat(found ? found[1][2] : [])) {
    const template = typeof call === 'string' ? call : call.path;
    let missing = false;
    const url = '/api' + template.replace(/\\{(\\w+)\\}/g, (_, name) => value(name) || ((missing = true), ''));
    if (missing) continue;
    // The body is read at once, so the request ends even if the app never asks for it.
    const response = fetch(url, { headers }).then((answer) => {
      const copy = answer.clone();
      const read =
        typeof call !== 'string' && answer.ok
          ? copy.json().then((data) => preloadImage(data, call.image))
          : copy.arrayBuffer();
      return read.then(() => answer, () => answer);
    });
    // Handled here so a failure is no unhandled rejection; the app still sees it when it asks.
    response.catch(() => {});
    window.__firstCalls.push({ url, token, at: performance.now(), response });
  }
})();`;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Next to each text file of the build, its gzip (`.gz`) and brotli (`.br`) copies at the
 * highest settings, done once here instead of on every request. The production server
 * (stub-server/server.ts) sends them to browsers that accept them, as nginx's gzip_static does.
 */
function precompress(): Plugin {
  let outDir = '';
  const gzipAsync = promisify(gzip);
  const brotliAsync = promisify(brotliCompress);
  return {
    name: 'berries-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const bytes = await readFile(file);
          if (bytes.length < COMPRESS_MIN_BYTES) return;
          const [gz, br] = await Promise.all([
            gzipAsync(bytes, { level: 9 }),
            brotliAsync(bytes, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
          ]);
          await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadFirstRoute(), precompress(), ...(apiTarget ? [] : [embeddedStub()])],
  server: {
    host: '127.0.0.1',
    proxy: apiTarget
      ? {
          '/api': { target: apiTarget, changeOrigin: true },
          '/media': { target: apiTarget, changeOrigin: true },
        }
      : undefined,
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Browsers without modulepreload (Safari before 17) still work, they only preload less.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry needs, in one file: one request, and gzip works across it
            // (3 KB less than the handful of small shared chunks Rolldown makes by itself).
            { name: 'shell', tags: ['$initial'] },
            // What five or more lazily loaded parts share (cards, fields, error states...): one
            // chunk instead of some twenty tiny ones. A page then makes 4-9 requests instead of
            // 12-23 and loads 2-4 KB less (gzip); Lighthouse mobile LCP on / 4.1 s -> 3.4 s.
            { name: 'common', minShareCount: 5 },
          ],
        },
      },
    },
  },
});
