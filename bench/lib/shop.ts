// The shop as the benches start it, the ways the tests do: in this process on the production
// build (`startShopServer`, with the stub embedded), or as processes of their own
// (tests/e2e/nginx-recipe.ts: `startShopProcess`); and what such a process holds in memory.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import { type Instance, REPO_ROOT, startShopProcess } from '../../tests/e2e/nginx-recipe.ts';
import type { AtExit } from './main.ts';

export { REPO_ROOT };

const run = promisify(execFile);

/** The build the benches measure. */
export const DIST = path.join(REPO_ROOT, 'dist');

export function requireBuild(): void {
  if (!existsSync(path.join(DIST, 'server', 'entry-server.js'))) {
    throw new Error(`the build in ${DIST} is missing: run npm run build first`);
  }
}

/** A folder of its own, removed at the end (after what writes into it has stopped). */
export async function tempDir(atExit: AtExit, name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `berries-bench-${name}-`));
  atExit(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The shop in this process on a free loopback port, on the build (or another in `distDir`), with the stub's data (from
 * its seed) and the pictures' cache in a throwaway folder.
 */
export async function startBenchShop(atExit: AtExit, distDir = DIST): Promise<RunningShop> {
  requireBuild();
  const dataDir = await tempDir(atExit, 'shop');
  const shop = await startShopServer({
    port: 0,
    host: '127.0.0.1',
    distDir,
    stub: { dataFile: path.join(dataDir, 'db.json'), reset: true },
    images: { cacheDir: path.join(dataDir, 'images') },
  });
  atExit(() => shop.close());
  return shop;
}

/**
 * `host/main.ts` of the checkout at `root` in a process of its own, as the tests start it, its
 * embedded stub reseeded and its pictures' cache in a throwaway folder, `env` added. Stopped at
 * the end; `close()` stops it sooner, so that it does not run beside the next measurement.
 */
export async function startShopChild(
  atExit: AtExit,
  env: Record<string, string> = {},
  root = REPO_ROOT,
): Promise<Instance> {
  const dir = await tempDir(atExit, 'child');
  const shop = await startShopProcess({
    root,
    env: {
      STUB_DATA_FILE: path.join(dir, 'db.json'),
      IMAGE_CACHE_DIR: path.join(dir, 'images'),
      ...env,
    },
    args: ['--reset'],
  });
  atExit(() => shop.close());
  return shop;
}

/** The base commit checked out, installed and built in a temporary worktree; removed at the end. */
export async function baseCheckout(ref: string, atExit: AtExit): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'berries-base-'));
  atExit(async () => {
    await run('git', ['worktree', 'remove', '--force', root], { cwd: REPO_ROOT }).catch(() => {});
    await rm(root, { recursive: true, force: true });
  });
  await run('git', ['worktree', 'add', '--detach', root, ref], { cwd: REPO_ROOT });
  console.log(`base ${ref}: npm ci and build in ${root}`);
  const quiet = { cwd: root, maxBuffer: 64 * 1024 * 1024 };
  // The bench runs with NODE_ENV=production, under which npm ci would leave out the build's tools.
  await run('npm', ['ci', '--include=dev', '--prefer-offline', '--no-audit', '--no-fund'], quiet);
  await run('npm', ['run', 'build'], quiet);
  return root;
}

/** A figure of /proc/PID/status in MB: VmRSS now, or VmHWM, the peak so far. */
export function procMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} for process ${pid}`);
  return Number(kb) / 1024;
}
