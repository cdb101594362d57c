// The real stub (fixtures, 404s, fault injection) in a child process, for component tests that
// should see what the app sees. happy-dom's own URL class cannot load the stub's modules, hence
// a process rather than an in-process server. The page's origin is set to the stub's, so the
// app's relative /api calls reach it as they do in the browser.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultSpec } from '../../../stub-server/faults';

export interface StubProcess {
  url: string;
  /** Adds a fault through /__control/faults (e.g. a 500 for one call). */
  fault(spec: FaultSpec): Promise<void>;
  /** Removes every fault. */
  clearFaults(): Promise<void>;
  /** Clears faults and re-seeds the data. */
  reset(): Promise<void>;
  /** Every /api path the page asked for since the last reset. */
  calls: string[];
  stop(): Promise<void>;
}

const REPO_ROOT = join(import.meta.dirname, '../../..');

async function control(url: string, path: string, body: unknown, method = 'POST'): Promise<void> {
  const response = await fetch(`${url}__control/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'DELETE' ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path} answered ${response.status}`);
}

export async function startStubProcess(): Promise<StubProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'berries-catalog-unit-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'stub-server/serve.ts', '--controls'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: '0', STUB_DATA_FILE: join(dir, 'db.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`stub did not start:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/[\d.:[\]]+\/)api\//.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stub exited (${code}):\n${output}`));
    });
  });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);

  // happy-dom keeps any answer with an ETag and no Cache-Control as fresh forever (a browser
  // revalidates it), so a fault's 500 would outlive the fault. No test here is about caching.
  const calls: string[] = [];
  const pageFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('Cache-Control', 'no-cache');
    const path = new URL(String(input instanceof Request ? input.url : input), url).pathname;
    if (path.startsWith('/api/')) calls.push(path);
    return pageFetch(input, { ...init, headers });
  };

  return {
    url,
    calls,
    fault: (spec) => control(url, 'faults', spec),
    clearFaults: () => control(url, 'faults', null, 'DELETE'),
    reset: async () => {
      calls.length = 0;
      await control(url, 'reset', {});
    },
    stop: async () => {
      globalThis.fetch = pageFetch;
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
