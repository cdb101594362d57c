// Runs pact-broker from node_modules with a built command line, or prints it (--dry-run).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Refusal, type Git } from './broker';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PACT_BROKER_BIN = fileURLToPath(
  new URL('../../node_modules/.bin/pact-broker', import.meta.url),
);

export const git: Git = (args) =>
  execFileSync('git', args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

const quote = (arg: string): string =>
  /^[\w./:@=+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;

/** Builds the command with `build`, then runs it; a Refusal is printed and exits with 1. */
export function runBroker(build: (args: string[]) => string[]): void {
  const argv = process.argv.slice(2);
  const dryRun = argv.includes('--dry-run');
  try {
    const args = build(argv.filter((arg) => arg !== '--dry-run'));
    console.log(`pact-broker ${args.map(quote).join(' ')}`);
    if (dryRun) return;
    if (!existsSync(PACT_BROKER_BIN)) {
      throw new Refusal(
        'pact-broker is not installed: add @pact-foundation/pact-cli 18+ to devDependencies (npm install -D @pact-foundation/pact-cli@^18)',
      );
    }
    const result = spawnSync(PACT_BROKER_BIN, args, { cwd: ROOT, stdio: 'inherit' });
    if (result.error) throw result.error;
    process.exitCode = result.status ?? 1;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    console.error(`Refused: ${error.message}`);
    process.exitCode = 1;
  }
}
