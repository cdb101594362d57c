import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Next to each text file of the build, its gzip (`.gz`) and brotli (`.br`) copies at the
 * highest settings, done once here instead of on every request. The production server
 * (host/static.ts) sends them to browsers that accept them, as nginx's gzip_static does.
 */
function precompress(): Plugin {
  let outDir = '';
  const gzipAsync = promisify(gzip);
  const brotliAsync = promisify(brotliCompress);
  return {
    name: 'berries-precompress',
    apply: 'build',
    configResolved(config) {
      // The server's own bundle is read from disk by Node, never sent.
      outDir = config.build.ssr ? '' : path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if (!outDir) return;
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

/**
 * The host's bundle keeps each of its modules' own import.meta.url, so that what they read beside
 * their source (the repo's root, the stub's data and fixtures, the placeholder picture) is found
 * where it is in the checkout rather than beside the bundle. Its chunks sit in its folder itself.
 */
function sourceFileUrls(): Plugin {
  let outDir = '';
  return {
    name: 'berries-source-file-urls',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('import.meta.url')) return null;
      const source = JSON.stringify(path.relative(outDir, id).split(path.sep).join('/'));
      return code.replaceAll('import.meta.url', `new URL(${source}, import.meta.url).href`);
    },
  };
}

/** Mantine's component that writes the theme's variables, as its package lays it out (9.7.3). */
const MANTINE_CSS_VARIABLES =
  /@mantine\/core\/esm\/core\/MantineProvider\/MantineCssVariables\/MantineCssVariables\.mjs$/;

/**
 * The browser's build without Mantine's component that writes the theme's variables: the app
 * turns it off (src/app/App.tsx: withCssVariables={false}; the server writes them in each page's
 * head, src/app/theme-variables.ts), yet MantineProvider imports it and its resolvers, some
 * 2.5 KB gzip that no page runs. That room is what the speed report of issue 40 (src/app/rum.ts)
 * takes in the first view's budget. A Mantine whose layout differs fails the build here, rather
 * than carry the bytes again unnoticed.
 */
function withoutMantineCssVariables(): Plugin {
  let replaced = false;
  return {
    name: 'berries-without-mantine-css-variables',
    apply: (_config, { isSsrBuild }) => !isSsrBuild,
    enforce: 'pre',
    load(id) {
      if (!MANTINE_CSS_VARIABLES.test(id)) return null;
      replaced = true;
      return 'export function MantineCssVariables() { return null; }';
    },
    buildEnd(error) {
      if (!error && !replaced && this.meta.watchMode === false) {
        this.error(`${MANTINE_CSS_VARIABLES.source} was not found: has Mantine's layout changed?`);
      }
    },
  };
}

// `npm run build` makes the whole shop:
//   vite build                                  the browser's files, dist/client (with the
//                                               manifest the server reads to preload a page's chunks)
//   vite build --ssr src/server-entry/entry-server.tsx   the app's server entry, dist/server
//   vite build --ssr host/main.ts --mode host   the Node host that loads it, dist/host (`node
//                                               dist/host/main.js`), the stub within it
// `vite build --mode profile` makes dist/profile/client, the browser's files on React's profiling
// build, for `npm run bench:trace`.
// `npm run dev` runs Vite inside the shop's own server (`tsx host/main.ts --dev`).
export default defineConfig(({ command, isSsrBuild, mode }) => ({
  plugins:
    mode === 'host'
      ? [sourceFileUrls()]
      : [react(), precompress(), ...(command === 'build' ? [withoutMantineCssVariables()] : [])],
  resolve: {
    alias: {
      'use-sync-external-store/shim/index.js': path.resolve('src/lib/use-sync-external-store.ts'),
      // `--mode profile` (bench/trace-home.ts): React's profiling build, which names each
      // component's render in a performance trace.
      ...(mode === 'profile' ? { 'react-dom/client': 'react-dom/profiling' } : {}),
    },
  },
  // The server's entry carries the few icons the shop draws, not the package's ~5,900: imported
  // from node_modules as it is, @tabler/icons-react alone made an instance ~80 MB heavier.
  // Mantine likewise: the components the pages use, not every one of its packages' (importing
  // the entry took 58 MB with them external, 31 MB bundled).
  ssr: { noExternal: ['@tabler/icons-react', /^@mantine\//] },
  build: {
    outDir:
      mode === 'host'
        ? 'dist/host'
        : mode === 'profile'
          ? 'dist/profile/client'
          : isSsrBuild
            ? 'dist/server'
            : 'dist/client',
    // The host reads public/ where it is; the other two copy it (the browser's from there).
    copyPublicDir: mode !== 'host',
    manifest: !isSsrBuild,
    target: isSsrBuild ? 'node20' : 'es2022',
    sourcemap: false,
    // The profiling build keeps its components' names for the trace.
    ...(mode === 'profile' ? { minify: false } : {}),
    // Browsers without modulepreload (Safari before 17) still work, they only preload less.
    modulePreload: { polyfill: false },
    rolldownOptions: isSsrBuild
      ? // The host's chunks beside its main.js, as sourceFileUrls counts on.
        { output: mode === 'host' ? { chunkFileNames: '[name]-[hash].js' } : {} }
      : {
          output: {
            codeSplitting: {
              groups: [
                // Everything the entry needs, in one file: one request, and gzip works across it
                // (3 KB less than the handful of small shared chunks Rolldown makes by itself).
                { name: 'shell', tags: ['$initial'] },
                // Mantine's ActionIcon (PasswordInput's toggle) and the Transition it brings:
                // the shop draws its own buttons (src/ui/controls), so they come in their own
                // chunk with the login page, not in 'common'.
                {
                  name: 'mantine-buttons',
                  test: /@mantine\/core\/esm\/components\/(ActionIcon|Button|Transition)\//,
                  // What they are made of (UnstyledButton, hooks) stays where the pages that
                  // need it alone would find it.
                  includeDependenciesRecursively: false,
                },
                // What five or more lazily loaded parts share (cards, fields, error states...):
                // one chunk instead of some twenty tiny ones. A page then makes 4-9 requests
                // instead of 12-23 and loads 2-4 KB less (gzip).
                { name: 'common', minShareCount: 5 },
              ],
            },
          },
        },
  },
}));
