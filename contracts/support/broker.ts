// Command lines for @pact-foundation/pact-cli (18+): `pact-broker publish` and
// `pact-broker can-i-deploy`. Pure functions of the environment and git, so the tests can check
// them; contracts/publish.ts and contracts/can-i-deploy.ts run them. The token never goes on the
// command line (other users can read it there): pact-broker reads PACT_BROKER_TOKEN itself.
import { CONSUMER } from './constants';

/** Relative to the repository root, where the scripts run pact-broker. */
export const PACTS = 'contracts/pacts';

export type Env = Record<string, string | undefined>;

/** A reason not to run, told to the person at the terminal; the script exits with 1. */
export class Refusal extends Error {}

/** Runs git with these arguments and answers its trimmed output (throws when git fails). */
export type Git = (args: string[]) => string;

export interface Broker {
  baseUrl: string;
}

export function brokerFrom(env: Env): Broker {
  const baseUrl = env.PACT_BROKER_BASE_URL?.trim();
  if (!baseUrl) {
    throw new Refusal(
      'PACT_BROKER_BASE_URL is not set: export the address of your Pact Broker, e.g. PACT_BROKER_BASE_URL=https://broker.example.com',
    );
  }
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new Refusal(`PACT_BROKER_BASE_URL is not an http(s) URL: "${baseUrl}"`);
  }
  const basicAuth = Boolean(env.PACT_BROKER_USERNAME && env.PACT_BROKER_PASSWORD);
  if (!env.PACT_BROKER_TOKEN?.trim() && !basicAuth) {
    throw new Refusal(
      'PACT_BROKER_TOKEN is not set: export the Pact Broker API token (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD for basic auth)',
    );
  }
  return { baseUrl };
}

export interface Version {
  /** The git commit: a pact version must name exactly one state of the code. */
  version: string;
  branch: string;
}

/** The commit and branch, from GIT_COMMIT / GIT_BRANCH (CI checkouts are often detached) or git. */
export function versionFrom(env: Env, git: Git): Version {
  let version = env.GIT_COMMIT?.trim();
  let branch = env.GIT_BRANCH?.trim();
  try {
    version ||= git(['rev-parse', 'HEAD']);
    branch ||= git(['rev-parse', '--abbrev-ref', 'HEAD']);
  } catch {
    throw new Refusal(
      'git could not tell the commit and branch: run inside the repository, or set GIT_COMMIT and GIT_BRANCH',
    );
  }
  if (!/^[0-9a-f]{7,40}$/i.test(version)) {
    throw new Refusal(`GIT_COMMIT is not a git commit sha: "${version}"`);
  }
  if (!branch || branch === 'HEAD') {
    throw new Refusal(
      'The checkout is on no branch (detached HEAD): set GIT_BRANCH to the branch name',
    );
  }
  return { version, branch };
}

/** Publishing a pact file that differs from the commit would file it under the wrong version. */
export function requireCommittedPacts(git: Git, pactDir: string = PACTS): void {
  const changes = git(['status', '--porcelain', '--', pactDir]);
  if (changes) {
    throw new Refusal(
      `The pact file differs from the commit (git status: ${changes.split('\n')[0]}): commit it first, then publish`,
    );
  }
}

export function publishArgs(broker: Broker, version: Version, pactDir: string = PACTS): string[] {
  return [
    'publish',
    pactDir,
    '--consumer-app-version',
    version.version,
    '--branch',
    version.branch,
    '--broker-base-url',
    broker.baseUrl,
  ];
}

export function canIDeployArgs(
  broker: Broker,
  version: Version,
  environment: string,
  extra: string[] = [],
): string[] {
  return [
    'can-i-deploy',
    '--pacticipant',
    CONSUMER,
    '--version',
    version.version,
    '--to-environment',
    environment,
    '--broker-base-url',
    broker.baseUrl,
    ...extra,
  ];
}

/** `--to-environment NAME` from the arguments, else PACT_ENVIRONMENT, else production. */
export function environmentFrom(args: string[], env: Env): { environment: string; rest: string[] } {
  const rest = [...args];
  const at = rest.indexOf('--to-environment');
  if (at >= 0) {
    const value = rest[at + 1];
    if (!value || value.startsWith('--')) throw new Refusal('--to-environment needs a name');
    rest.splice(at, 2);
    return { environment: value, rest };
  }
  return { environment: env.PACT_ENVIRONMENT?.trim() || 'production', rest };
}
