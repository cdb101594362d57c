// deploy/nginx.conf as written, run by Debian's nginx in front of instances of the shop's server,
// each the built server (`node dist/host/main.js`) in a process of its own as in production
// (nothing of one process's memory is shared). Only its ports and build path are swapped for free ones. Used by
// tests/e2e/nginx*.test.ts and `npm run bench:scale`.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer as startStub } from '../../stub-server/server.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Replaces `from` by `to`, which must stand in the file exactly `times` times. */
function swap(text: string, from: string, to: string, times = 1): string {
  const parts = text.split(from);
  if (parts.length !== times + 1) {
    throw new Error(`deploy/nginx.conf: "${from}" must appear ${times} time(s)`);
  }
  return parts.join(to);
}

/** Resolves once `url` answers 200; rejects if `exited` does first, and stops asking then. */
async function answering(url: string, exited: Promise<never>): Promise<void> {
  let gone = false;
  exited.catch(() => (gone = true));
  const ready = (async () => {
    while (!gone) {
      const answer = await fetch(url).catch(() => null);
      if (answer?.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await Promise.race([ready, exited]);
}

/** Stops a child by its handle and waits for it to be gone. */
async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await gone;
}

/** One instance of the shop: `node dist/host/main.js` in a process of its own. */
export interface Instance {
  port: number;
  url: string;
  child: ChildProcess;
  /** What it has written on stdout and stderr so far (its log lines). */
  output(): string;
  close(): Promise<void>;
}

/**
 * How the checkout at `root` runs its server: built, as deployed (`dist/host/main.js`). A bench
 * may measure a commit from before the host was built (BENCH_BASE); that one runs its TypeScript
 * through tsx, as it did then.
 */
function serverCommand(root: string): string[] {
  if (root === REPO_ROOT || existsSync(path.join(root, 'dist', 'host', 'main.js'))) {
    return ['dist/host/main.js'];
  }
  const source = ['host/main.ts', 'server/main.ts'].find((file) =>
    existsSync(path.join(root, file)),
  );
  return ['--import', 'tsx', source ?? 'dist/host/main.js'];
}

/**
 * Starts the build of the checkout at `root` (this one by default) on `port` (a free one
 * by default; an instance restarted in place takes its old one), with `env` added to this
 * process's and `args` after it; resolves once it answers /healthz.
 */
export async function startShopProcess({
  root = REPO_ROOT,
  main,
  cwd,
  env = {},
  args = [],
  port: wanted,
}: {
  root?: string;
  /** The built host to run (`…/host/main.js`) instead of the checkout's at `root`. */
  main?: string;
  /** Its working folder; default `root`. */
  cwd?: string;
  env?: Record<string, string>;
  args?: string[];
  port?: number;
}): Promise<Instance> {
  const port = wanted ?? (await freePort());
  const child = spawn(process.execPath, [...(main ? [main] : serverCommand(root)), ...args], {
    cwd: cwd ?? root,
    // Metrics on a free port of their own: PORT + 1000, their default, may be another's.
    env: { ...process.env, PORT: String(port), ACCESS_LOG: '0', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the shop exited (${code}): ${output}`))),
  );
  exited.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  await answering(`${url}/healthz`, exited);
  return { port, url, child, output: () => output, close: () => stop(child, 'SIGTERM') };
}

/**
 * `count` instances in front of the backend at `apiTarget`, as production runs them, with `env`
 * added; if one fails to start, those that did are stopped.
 */
export async function startInstances(
  count: number,
  apiTarget: string,
  env: Record<string, string> = {},
): Promise<Instance[]> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, () =>
      startShopProcess({ env: { API_TARGET: apiTarget, ...env } }),
    ),
  );
  const shops = started.flatMap((one) => (one.status === 'fulfilled' ? [one.value] : []));
  const failed = started.find((one) => one.status === 'rejected');
  if (failed) {
    await Promise.all(shops.map((shop) => shop.close()));
    throw failed.reason;
  }
  return shops;
}

export interface Recipe {
  /** nginx's address, `http://127.0.0.1:PORT`. */
  url: string;
  /** Its renewing listener (the instances' PAGE_RENEW_URL). */
  renewUrl: string;
  /** Its stub_status, on the loopback port of its own. */
  statusUrl: string;
  /** Its access log (deploy/nginx.conf's `shop` format), written each second. */
  accessLog: string;
  /** Its prefix: logs/, tmp/pages (the kept pages). */
  prefix: string;
  /** nginx's master process (its workers are its children). */
  pid: number;
  /** What nginx has written to its error log so far. */
  errorLog(): Promise<string>;
  close(): Promise<void>;
}

export interface RecipeOptions {
  /** nginx's port, when a backend must know it before nginx starts (its change hook's address). */
  port?: number;
  /** The renewing listener's port, known to the instances before nginx starts (PAGE_RENEW_URL). */
  renewPort?: number;
  /** The folder holding assets/ (deploy/release.sh's home); default the checkout's build. */
  assetsRoot?: string;
}

/**
 * deploy/nginx.conf in front of two instances (whatever listens on their ports), with its files
 * under a new temporary prefix.
 */
export async function startRecipe(
  shops: [Pick<Instance, 'port'>, Pick<Instance, 'port'>],
  options: RecipeOptions = {},
): Promise<Recipe> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is not installed at ${NGINX}: apt-get install nginx (bash .ci/run does)`,
    );
  }
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'berries-nginx-'));
  const port = options.port ?? (await freePort());
  const renewPort = options.renewPort ?? (await freePort());
  const statusPort = await freePort();
  let conf = await readFile(path.join(REPO_ROOT, 'deploy', 'nginx.conf'), 'utf8');
  // The upstream's servers, and the hook's copy to each.
  conf = swap(conf, '127.0.0.1:3001', `127.0.0.1:${shops[0].port}`, 2);
  conf = swap(conf, '127.0.0.1:3002', `127.0.0.1:${shops[1].port}`, 2);
  conf = swap(conf, 'listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`);
  conf = swap(conf, 'listen 127.0.0.1:8081;', `listen 127.0.0.1:${statusPort};`);
  conf = swap(conf, 'listen 127.0.0.1:8082;', `listen 127.0.0.1:${renewPort};`);
  conf = swap(conf, '    8082 1;', `    ${renewPort} 1;`);
  conf = swap(
    conf,
    'root /srv/berries-shop;',
    `root ${options.assetsRoot ?? `${REPO_ROOT}dist/client`};`,
  );
  // Run as root, nginx's workers run as nobody: they must reach the caches under the prefix.
  await chmod(prefix, 0o755);
  await mkdir(path.join(prefix, 'logs'), { recursive: true });
  await mkdir(path.join(prefix, 'tmp'), { recursive: true });
  await writeFile(path.join(prefix, 'nginx.conf'), conf);
  const nginx = spawn(NGINX, ['-p', prefix, '-c', 'nginx.conf', '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  nginx.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // nginx that fails to start exits, and says why.
  const exited = new Promise<never>((_, reject) =>
    nginx.once('exit', (code) => reject(new Error(`nginx exited (${code}): ${log}`))),
  );
  exited.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stop(nginx, 'SIGQUIT');
    await rm(prefix, { recursive: true, force: true });
  };
  try {
    await answering(`${url}/healthz`, exited);
  } catch (error) {
    await close();
    throw error;
  }
  const errorLog = () => readFile(path.join(prefix, 'logs', 'error.log'), 'utf8').catch(() => '');
  return {
    url,
    renewUrl: `http://127.0.0.1:${renewPort}`,
    statusUrl: `http://127.0.0.1:${statusPort}/stub_status`,
    accessLog: path.join(prefix, 'logs', 'access.log'),
    errorLog,
    prefix,
    pid: nginx.pid ?? 0,
    close,
  };
}

/** Two instances in front of one backend, and the recipe in front of them. */
export interface RecipeInFront extends Recipe {
  shops: [Instance, Instance];
}

/**
 * Two instances in front of the backend at `apiTarget` with `env` added, as production runs
 * them, and the recipe in front of them; `close` stops nginx, then the instances. If a part
 * fails to start, those that did are stopped.
 */
export async function startRecipeInFront(
  apiTarget: string,
  env: Record<string, string> = {},
): Promise<RecipeInFront> {
  const renewPort = await freePort();
  const shops = await startInstances(2, apiTarget, {
    PAGE_RENEW_URL: `http://127.0.0.1:${renewPort}`,
    ...env,
  });
  const closeShops = () => Promise.all(shops.map((shop) => shop.close())).then(() => {});
  try {
    const [one, two] = shops;
    if (!one || !two) throw new Error('two instances were asked for');
    const recipe = await startRecipe([one, two], { renewPort });
    const close = async () => {
      await recipe.close();
      await closeShops();
    };
    return { ...recipe, shops: [one, two], close };
  } catch (error) {
    await closeShops();
    throw error;
  }
}

/** The e2e tests' production in small: a stub backend, two instances in front of it, nginx. */
export interface StubRecipe extends RecipeInFront {
  backend: RunningServer;
  /** Starts the stub again after `backend.close()`: on its port, with its data. */
  restartBackend(): Promise<void>;
}

/**
 * The stub (its data in a new temporary folder), two instances in front of it with `env` added,
 * and the recipe in front of them. Each part may be stopped early; `close` stops the rest.
 */
export async function startStubRecipe(env: Record<string, string> = {}): Promise<StubRecipe> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'berries-nginx-stub-'));
  const stops: (() => Promise<void>)[] = [() => rm(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const dataFile = path.join(dir, 'db.json');
    let stub = await startStub({ port: 0, dataFile, controls: true });
    let stubClosed: Promise<void> | undefined;
    const backend = { ...stub, close: () => (stubClosed ??= stub.close()) };
    const restartBackend = async () => {
      await backend.close();
      stub = await startStub({ port: backend.port, dataFile, controls: true });
      stubClosed = undefined;
    };
    stops.push(() => backend.close());
    const front = await startRecipeInFront(stub.url.replace(/\/$/, ''), env);
    stops.push(front.close);
    return { ...front, backend, restartBackend, close };
  } catch (error) {
    await close();
    throw error;
  }
}
