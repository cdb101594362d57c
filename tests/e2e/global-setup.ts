// Starts the shop's server (host/app.ts) on the production build and the stub, in-process, once for the whole e2e run.
// Tests read its address with inject('baseUrl'); the returned teardown stops it and removes
// the temporary data file, whether the tests passed or not.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startShopServer } from '../../host/app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const distDir = path.join(REPO_ROOT, 'dist');
  // The app's entry (for the server started below) and the host (nginx-recipe.ts's processes).
  const built = [path.join('server', 'entry-server.js'), path.join('host', 'main.js')];
  if (!built.every((file) => existsSync(path.join(distDir, file)))) {
    throw new Error(`e2e: the build in ${distDir} is missing: run npm run build first`);
  }

  // The data file lives in its own temporary directory; the stub seeds it from the fixtures.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-e2e-'));
  const dataFile = path.join(dataDir, 'db.json');

  let server: Awaited<ReturnType<typeof startShopServer>>;
  try {
    server = await startShopServer({
      port: 0,
      host: '127.0.0.1',
      distDir,
      stub: { dataFile, controls: true },
      images: { cacheDir: path.join(dataDir, 'images') },
      // The suite injects faults into the stub and changes its data between page loads: every
      // page is rendered from the backend's answers of the moment, none kept. The public answers'
      // cache and its stale-if-error are tested on their own (tests/e2e/backend-faults.test.ts).
      publicAnswers: { staleMs: 0 },
      // As production runs it, with its metrics (on a free port): pages send their speed to /rum.
      metrics: { port: 0, host: '127.0.0.1' },
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const url = server.url.replace(/\/+$/, '');
  project.provide('baseUrl', url);
  console.log(`e2e: production build served at ${url} (data file ${dataFile})`);

  return async () => {
    try {
      await server.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  };
}
