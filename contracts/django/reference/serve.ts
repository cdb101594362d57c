// The reference Django backend (contracts/django/reference), started on a throw-away database.
//   npm run backend:django        -> on PORT (default 8000) until Ctrl+C
//   startDjangoBackend()          -> the same from a test: { url, pid, logs(), stop() }
// Each start exports the stub's seed, makes a fresh temporary directory with the SQLite database
// and the media, runs `migrate` and `seed`, then Django's runserver. Debian's Django is visible
// only to /usr/bin/python3 (a pyenv or venv `python3` on PATH would not have it).
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { stopOnSignals } from '../../../host/process/stop-on-signals.ts';
import { buildDjangoSeed } from './export-seed.ts';

export const PYTHON = '/usr/bin/python3';
export const PROJECT_DIR = fileURLToPath(new URL('.', import.meta.url));
/** The provider-state view, mounted when PACT_PROVIDER_STATES=1 (the default here). */
export const STATES_PATH = '/_pact/provider-states';
const READY_PATH = '/api/catalog/section_root';
/** Painted photos, kept across starts (the seed keys them by what they are made of). */
const PHOTO_CACHE = join(tmpdir(), 'berries-django-photos');
const START_TIMEOUT_MS = 120_000;

export interface DjangoBackendOptions {
  /** 0 (the default): a free port. */
  port?: number;
  /** Added to the backend's environment: DJANGO_DEBUG, DJANGO_ALLOWED_HOSTS, … */
  env?: Record<string, string>;
  /** Another copy of this project to run (the mutation run's altered copies); default this one. */
  projectDir?: string;
  /**
   * A data directory of an earlier start (`keepData`), migrated and seeded: copied instead of
   * migrating and seeding again (the mutation run starts two dozen copies).
   */
  seededFrom?: string;
  /** Leave the data directory in place at `stop()`, for `seededFrom`. */
  keepData?: boolean;
}

export interface DjangoBackend {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** The SQLite database and the media (DJANGO_DATA_DIR). */
  dataDir: string;
  pid: number;
  /** Everything the backend wrote so far: migrate, seed, then one line per request. */
  logs(): string;
  /**
   * Runs Python in `manage.py shell` beside the server, as an admin's change would: the ORM,
   * its signals, the change hook (with the server's environment); resolves with what it printed.
   */
  shell(code: string): Promise<string>;
  /** Stops the server (by its pid) and removes its temporary directory. */
  stop(): Promise<void>;
}

export class DjangoMissingError extends Error {}

const run = promisify(execFile);

async function checkPython(env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(PYTHON, ['-c', 'import django, rest_framework, PIL'], { env });
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim().split('\n').pop() ?? String(error);
    throw new DjangoMissingError(
      `${PYTHON} не видит Django, DRF или Pillow (${detail}).\n` +
        `${PYTHON} lacks Django, Django REST Framework or Pillow. Install Debian's packages:\n` +
        '  sudo apt-get install python3-django python3-djangorestframework python3-pil',
      { cause: error },
    );
  }
}

/**
 * The port to run on: `port`, checked to be free (runserver would fail on a busy one only after
 * the ready check had found whatever else listens there), or any free one for 0.
 */
async function portToUse(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Порт ${port} занят: задайте другой через PORT=… (port ${port} is in use)`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export async function startDjangoBackend(
  options: DjangoBackendOptions = {},
): Promise<DjangoBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'berries-django-'));
  const output: string[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DJANGO_DATA_DIR: dir,
    PACT_PROVIDER_STATES: '1',
    PYTHONUNBUFFERED: '1', // request lines as they happen
    PYTHONDONTWRITEBYTECODE: '1', // no __pycache__ in the repository
    ...options.env,
  };
  const projectDir = options.projectDir ?? PROJECT_DIR;
  // Migrating and seeding tell no shop of their changes: it starts after them.
  const setupEnv = { ...env, DJANGO_SHOP_HOOK_URL: '' };
  const manage = async (...args: string[]) => {
    const result = await run(PYTHON, ['manage.py', ...args], { cwd: projectDir, env: setupEnv });
    output.push(result.stdout, result.stderr);
  };
  let port: number;
  try {
    port = await portToUse(options.port ?? 0);
    await checkPython(env);
    if (options.seededFrom) {
      cpSync(options.seededFrom, dir, { recursive: true });
    } else {
      const seedFile = join(dir, 'seed.json');
      writeFileSync(seedFile, JSON.stringify(buildDjangoSeed()));
      await manage('migrate', '--noinput', '-v', '0');
      await manage('seed', seedFile, '--photo-cache', PHOTO_CACHE);
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const failed = error as { stdout?: string; stderr?: string };
    if (failed.stderr !== undefined) {
      throw new Error(`Django backend setup failed:\n${failed.stdout ?? ''}${failed.stderr}`, {
        cause: error,
      });
    }
    throw error;
  }

  const url = `http://127.0.0.1:${port}`;
  const child = spawn(PYTHON, ['manage.py', 'runserver', `127.0.0.1:${port}`, '--noreload'], {
    cwd: projectDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (text: string) => output.push(text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => output.push(text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let running = true;
  void exited.then(() => (running = false));

  const stop = async (): Promise<void> => {
    if (running) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (!options.keepData) rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (!running) {
      await stop();
      throw new Error(`Django backend exited before answering:\n${output.join('')}`);
    }
    try {
      const response = await fetch(`${url}${READY_PATH}`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Django backend did not answer ${READY_PATH} in time:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const shell = async (code: string) => {
    const result = await run(PYTHON, ['manage.py', 'shell', '-c', code], { cwd: projectDir, env });
    return result.stdout;
  };
  return { url, dataDir: dir, pid: child.pid!, logs: () => output.join(''), shell, stop };
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`Некорректный PORT: ${process.env.PORT}`);
    process.exit(2);
  }
  let backend: DjangoBackend;
  try {
    backend = await startDjangoBackend({ port });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  console.log(backend.logs().trim());
  console.log(`Эталонный Django-бэкенд: ${backend.url}/api/ (демо: demo / berries2026)`);
  console.log(`Магазин перед ним: API_TARGET=${backend.url} npm start`);
  console.log(
    `Проверка контракта:  npm run contracts:verify -- --provider-base-url ${backend.url}` +
      ` --state-change-url ${backend.url}${STATES_PATH}`,
  );
  let shown = backend.logs().length;
  const follow = setInterval(() => {
    const logs = backend.logs();
    if (logs.length > shown) process.stdout.write(logs.slice(shown));
    shown = logs.length;
  }, 200);
  stopOnSignals(
    {
      close: async () => {
        clearInterval(follow);
        await backend.stop();
      },
    },
    'останавливаю Django',
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
