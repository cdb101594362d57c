import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
 * (host/pages/static.ts) sends them to browsers that accept them, as nginx's gzip_static does.
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
 * The built host finds what it reads beside its source (the placeholder picture, the resizer's
 * script, the stub's policy PDF, data and photos) in dist/, where the source tree has it in the
 * checkout: each bundled module's import.meta.url becomes its source path mirrored into dist/
 * (`stub-server/db.ts` reads `dist/stub-server/data/db.json`), and the files it reads are copied
 * there (BUILD_COPIES). So dist/ runs as it is from any folder, the checkout gone. Its chunks sit
 * in its folder itself.
 */
function sourceFileUrls(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'berries-source-file-urls',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('import.meta.url')) return null;
      const mirrored = path.join(path.dirname(outDir), path.relative(root, id));
      const source = JSON.stringify(path.relative(outDir, mirrored).split(path.sep).join('/'));
      return code.replaceAll('import.meta.url', `new URL(${source}, import.meta.url).href`);
    },
  };
}

/**
 * Files the built host reads beside its source (sourceFileUrls), copied to the same place, with
 * the packages each imports.
 */
const BUILD_COPIES: Record<string, string[]> = {
  'host/images/image-resizer.mjs': ['sharp'],
  'public/placeholder-product.svg': [],
  'stub-server/fixtures/policy.pdf': [],
};

/** Packages the server builds bundle (their own imports stay imports). */
const BUNDLED = ['@tabler/icons-react', /^@mantine\//];

/** Where each server build lists the packages its chunks import (runtimeImports). */
const IMPORTS_FILE = '.imports.json';

/**
 * Lists the packages the build's chunks import rather than bundle, as the build knows them, in
 * its folder (IMPORTS_FILE): the build carries those (runnableBuild).
 */
function runtimeImports(): Plugin {
  return {
    name: 'berries-runtime-imports',
    apply: 'build',
    generateBundle(_options, bundle) {
      const names = new Set<string>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of [...chunk.imports, ...chunk.dynamicImports]) {
          if (id in bundle || id.startsWith('node:') || builtinModules.includes(id)) continue;
          const [scope = '', name = ''] = id.split('/');
          names.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: IMPORTS_FILE,
        source: JSON.stringify([...names].sort()),
      });
    },
  };
}

/**
 * The package folders (`node_modules/…`) that `names` need at run time, with theirs, as
 * package-lock.json places them: not dev-only ones (vite, which only `--dev` loads), and not
 * optional ones this machine did not install.
 */
function runtimePackages(root: string, names: string[]): string[] {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean } & Record<string, Record<string, string>>>;
  };
  const found = new Set<string>();
  // Node's lookup: the package's own node_modules first, then each folder above it.
  const locate = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return undefined;
    }
  };
  const add = (folder: string | undefined) => {
    const entry = folder === undefined ? undefined : lock.packages[folder];
    if (!folder || !entry || entry.dev || found.has(folder)) return;
    if (!existsSync(path.join(root, folder))) return;
    found.add(folder);
    const needs = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const name of Object.keys(needs)) add(locate(folder, name));
  };
  for (const name of names) add(`node_modules/${name}`);
  return [...found].sort();
}

/**
 * Makes dist/ a folder that runs by itself (`node dist/host/main.js` from anywhere, the checkout
 * gone): its package.json (ES modules), the files the host reads (BUILD_COPIES), and the packages
 * the server builds import (dist/node_modules). Runs in the host's build, the last of the three.
 */
function runnableBuild(): Plugin {
  let root = '';
  let dist = '';
  return {
    name: 'berries-runnable-build',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      dist = path.dirname(path.resolve(config.root, config.build.outDir));
    },
    async closeBundle() {
      const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
      const manifest = { name: 'berries-shop-build', version, private: true, type: 'module' };
      await writeFile(path.join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      const names = new Set(Object.values(BUILD_COPIES).flat());
      for (const file of Object.keys(BUILD_COPIES)) {
        await cp(path.join(root, file), path.join(dist, file));
      }
      for (const build of ['server', 'host']) {
        const listed = JSON.parse(await readFile(path.join(dist, build, IMPORTS_FILE), 'utf8'));
        for (const name of listed as string[]) names.add(name);
      }
      await rm(path.join(dist, 'node_modules'), { recursive: true, force: true });
      // Each top-level package whole, the packages it nests with it, one cp(1) per folder they go
      // to: Node's fs.cp takes ten times as long for these 8,000 files.
      const into = new Map<string, string[]>();
      for (const folder of runtimePackages(root, [...names])) {
        if (folder.lastIndexOf('node_modules/') > 0) continue;
        const parent = path.dirname(path.join(dist, folder));
        into.set(parent, [...(into.get(parent) ?? []), path.join(root, folder)]);
      }
      for (const [parent, folders] of into) {
        await mkdir(parent, { recursive: true });
        await promisify(execFile)('cp', ['-R', ...folders, parent]);
      }
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
      ? [sourceFileUrls(), runtimeImports(), runnableBuild()]
      : isSsrBuild
        ? [react(), runtimeImports()]
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
  ssr: { noExternal: BUNDLED },
  build: {
    outDir:
      mode === 'host'
        ? 'dist/host'
        : mode === 'profile'
          ? 'dist/profile/client'
          : isSsrBuild
            ? 'dist/server'
            : 'dist/client',
    // The browser's builds copy public/; the host's reads the one file it needs (BUILD_COPIES).
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
