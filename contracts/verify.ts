// `npm run contracts:verify`: the Pact Verifier against a provider, with a summary at the end.
//   no arguments                  the embedded stub, started here on a temporary data file
//   --provider-base-url URL       any backend (its /api lives at URL/api)
//   --state-change-url URL        where provider states are set up (POST {state, params, action})
//   --header 'Name: value'        added to every replayed request (repeatable); 'Host: name'
//                                 replaces the host of --provider-base-url that requests carry
//   --pact FILE                   another pact file (default: the committed one)
// Exit code: 0 all interactions pass, 1 some fail, 2 wrong arguments or an unreachable provider;
// a provider that goes away during the run stops it at once (killed: 137).
import './support/env';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from '../stub-server/server';
import { PACT_SESSION } from './support/constants';
import { verifyProvider, type VerifyOptions } from './support/provider';
import { formatReport } from './support/report';

const USAGE = `Usage: npm run contracts:verify [-- --provider-base-url URL [--state-change-url URL] [--header 'Name: value']... [--pact FILE]]
Without --provider-base-url it verifies the embedded stub.`;

export class UsageError extends Error {}

export interface CliOptions {
  providerBaseUrl?: string;
  stateChangeUrl?: string;
  headers: Record<string, string>;
  pactFile?: string;
  help: boolean;
}

function checkUrl(flag: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new UsageError(`${flag}: "${value}" is not an http(s) URL`);
}

export function parseCli(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'provider-base-url': { type: 'string' },
        'state-change-url': { type: 'string' },
        header: { type: 'string', multiple: true },
        pact: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header: "${header}" is not of the form 'Name: value'`);
    }
    headers[name] = header.slice(colon + 1).trim();
  }
  const providerBaseUrl = values['provider-base-url'];
  const stateChangeUrl = values['state-change-url'];
  if (stateChangeUrl !== undefined && providerBaseUrl === undefined) {
    throw new UsageError('--state-change-url needs --provider-base-url');
  }
  return {
    providerBaseUrl:
      providerBaseUrl === undefined ? undefined : checkUrl('--provider-base-url', providerBaseUrl),
    stateChangeUrl:
      stateChangeUrl === undefined ? undefined : checkUrl('--state-change-url', stateChangeUrl),
    headers,
    pactFile: values.pact,
    help: values.help === true,
  };
}

/** A stub started with --controls answers GET /__control/state with its state names. */
async function stubStateUrl(baseUrl: string): Promise<string | null> {
  const url = new URL('__control/state', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) return null;
    const body = (await response.json()) as { named_states?: unknown };
    return Array.isArray(body.named_states) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Why the provider cannot be reached, or null when it answers at all (any status will do).
 * Pact's proxy does not survive a refused connection: it would hang the run instead.
 */
export async function unreachable(baseUrl: string): Promise<string | null> {
  try {
    await fetch(baseUrl, { signal: AbortSignal.timeout(10_000) });
    return null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in 10 s';
    return cause?.code ?? cause?.message ?? String(error);
  }
}

/** The provider went away during the run: say so and stop, rather than hang on each state. */
function stopWhenTheProviderGoes(baseUrl: string): void {
  process.on('uncaughtException', (error: Error & { code?: string }) => {
    if (!['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND'].includes(error.code ?? '')) {
      throw error;
    }
    console.error(`\nLost the connection to ${baseUrl} (${error.code}): verification stopped.`);
    // process.exit would wait for the native verifier's thread, which goes on with every
    // remaining interaction at 30 s each: end the process at once (the shell sees 137).
    process.kill(process.pid, 'SIGKILL');
  });
}

async function run(options: CliOptions): Promise<number> {
  const base: Pick<VerifyOptions, 'headers' | 'pactFile'> = {
    headers: options.headers,
    pactFile: options.pactFile,
  };
  if (!options.providerBaseUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'berries-verify-'));
    const server = await startServer({
      port: 0,
      dataFile: join(dir, 'db.json'),
      controls: true,
      reset: true,
    });
    console.log(`Verifying the embedded stub at ${server.url}`);
    try {
      const report = await verifyProvider({
        ...base,
        providerBaseUrl: server.url,
        stateChangeUrl: `${server.url}__control/state`,
        stateBodyExtras: { owner: `session:${PACT_SESSION}` },
        // Every interaction starts from the seed.
        beforeEach: async () => {
          const response = await fetch(`${server.url}__control/reset`, { method: 'POST' });
          if (!response.ok) throw new Error(`reset: HTTP ${response.status}`);
        },
      });
      console.log(formatReport(report));
      return report.ok ? 0 : 1;
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const why = await unreachable(options.providerBaseUrl);
  if (why) {
    console.error(`Cannot reach the provider at ${options.providerBaseUrl}: ${why}.`);
    console.error('Is the backend running, and is that its address and port?');
    return 2;
  }
  stopWhenTheProviderGoes(options.providerBaseUrl);

  let stateChangeUrl = options.stateChangeUrl;
  let stateBodyExtras: VerifyOptions['stateBodyExtras'];
  if (!stateChangeUrl) {
    const stubUrl = await stubStateUrl(options.providerBaseUrl);
    if (stubUrl) {
      stateChangeUrl = stubUrl;
      stateBodyExtras = { owner: `session:${PACT_SESSION}` };
      console.log(`The provider is the stub with controls: provider states go to ${stubUrl}`);
    } else {
      console.warn(
        'No --state-change-url: provider states are not set up, so interactions that need data may fail.',
      );
    }
  }
  console.log(`Verifying ${options.providerBaseUrl}`);
  const report = await verifyProvider({
    ...base,
    providerBaseUrl: options.providerBaseUrl,
    stateChangeUrl,
    stateBodyExtras,
  });
  console.log(formatReport(report));
  return report.ok ? 0 : 1;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    console.error(USAGE);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  process.exitCode = await run(options);
}

// Run only as a script: the tests import parseCli.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
