// The stub as `npm run stub` runs it: `tsx stub-server/serve.ts` in a process of its own, on a
// free port of 127.0.0.1 and the given data file. Stopped by its process id.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface StubProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Sends the signal and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function launch(
  dataFile: string,
  args: string[],
  nodeArgs: string[] = [],
): { child: ChildProcess; output: () => string } {
  const node = [...nodeArgs, '--import', 'tsx'];
  const child = spawn(process.execPath, [...node, 'stub-server/serve.ts', ...args], {
    cwd: REPO,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', STUB_DATA_FILE: dataFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/**
 * Starts the stub CLI with `args` (and `nodeArgs` for its node, e.g. a bench's `--cpu-prof`);
 * rejects with its output if it exits.
 */
export async function spawnStub(
  dataFile: string,
  args: string[] = [],
  nodeArgs: string[] = [],
): Promise<StubProcess> {
  const { child, output } = launch(dataFile, args, nodeArgs);
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output());
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`the stub exited: ${output()}`)));
  });
  return {
    url,
    child,
    output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Runs the CLI until it exits on its own (a start-up it refuses); answers its code and output.
 * A stub that starts after all is stopped at once, and its code is then that of the stop.
 */
export async function runStubToExit(
  dataFile: string,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  const { child, output } = launch(dataFile, args);
  child.stdout?.on('data', () => {
    if (/: http:\/\//.test(output())) child.kill('SIGTERM');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output: output() };
}
