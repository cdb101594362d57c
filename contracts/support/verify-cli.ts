// `npm run contracts:verify` in a child process, for the tests that verify a provider: the
// verifier writes its report straight to stdout, and this keeps it out of the test output unless
// something fails.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface VerifyCliResult {
  code: number;
  output: string;
  /** From the CLI's own `Pact verification: …` line on; empty when it never got there. */
  summary: string;
}

export async function runVerifyCli(args: string[] = []): Promise<VerifyCliResult> {
  let output: string;
  let code = 0;
  try {
    const result = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'contracts/verify.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, PACT_DO_NOT_TRACK: 'true', NO_COLOR: '1' },
        maxBuffer: 32 * 1024 * 1024,
      },
    );
    output = result.stdout + result.stderr;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    code = failed.code ?? 1;
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
  const at = output.lastIndexOf('Pact verification:');
  return { code, output, summary: at < 0 ? '' : output.slice(at) };
}
