// wrk (Debian: apt-get install wrk) for the rates one Node process cannot drive: autocannon's
// single thread tops out near 2,700 requests a second here, nginx answers ten times that.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const WRK = '/usr/bin/wrk';

/** Requests a second wrk got from `url` with `headers`, over `seconds` after a 2 s warm-up. */
export async function wrkRate(
  url: string,
  headers: Record<string, string>,
  { connections = 50, threads = 2, seconds = 10 } = {},
): Promise<{ per_s: number; non2xx: number }> {
  if (!existsSync(WRK)) throw new Error(`${WRK} is missing: apt-get install wrk`);
  const run = (duration: number) =>
    promisify(execFile)(WRK, [
      '-t',
      String(threads),
      '-c',
      String(connections),
      '-d',
      `${duration}s`,
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      url,
    ]);
  await run(2);
  const { stdout } = await run(seconds);
  const perS = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
  if (!perS) throw new Error(`wrk said: ${stdout}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { per_s: Math.round(Number(perS)), non2xx };
}
