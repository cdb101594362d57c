// contracts:publish and contracts:can-i-deploy: the command lines they build, and their refusal
// when the broker variables or the git version are missing.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  brokerFrom,
  canIDeployArgs,
  environmentFrom,
  type Git,
  publishArgs,
  Refusal,
  requireCommittedPacts,
  versionFrom,
} from './support/broker';

const SHA = '4fc44af0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6';
const broker = { PACT_BROKER_BASE_URL: 'https://broker.example.com', PACT_BROKER_TOKEN: 's3cret' };
const gitAt =
  (answers: Record<string, string>): Git =>
  (args) => {
    const answer = answers[args.join(' ')];
    if (answer === undefined) throw new Error(`git ${args.join(' ')} failed`);
    return answer;
  };
const onMain = gitAt({ 'rev-parse HEAD': SHA, 'rev-parse --abbrev-ref HEAD': 'main' });

describe('the broker command lines', () => {
  it('publishes contracts/pacts as the git commit on its branch', () => {
    const args = publishArgs(brokerFrom(broker), versionFrom({}, onMain));
    expect(args).toEqual([
      'publish',
      'contracts/pacts',
      '--consumer-app-version',
      SHA,
      '--branch',
      'main',
      '--broker-base-url',
      'https://broker.example.com',
    ]);
    expect(args.join(' ')).not.toContain('s3cret');
  });

  it('asks can-i-deploy for this commit of the storefront and an environment', () => {
    const { environment, rest } = environmentFrom(
      ['--to-environment', 'test', '--retry-while-unknown', '6'],
      {},
    );
    expect(canIDeployArgs(brokerFrom(broker), versionFrom({}, onMain), environment, rest)).toEqual([
      'can-i-deploy',
      '--pacticipant',
      'berries-shop-web',
      '--version',
      SHA,
      '--to-environment',
      'test',
      '--broker-base-url',
      'https://broker.example.com',
      '--retry-while-unknown',
      '6',
    ]);
    expect(environmentFrom([], { PACT_ENVIRONMENT: 'staging' }).environment).toBe('staging');
    expect(environmentFrom([], {}).environment).toBe('production');
  });

  it('takes GIT_COMMIT and GIT_BRANCH over git (detached CI checkouts)', () => {
    const detached = gitAt({ 'rev-parse HEAD': SHA, 'rev-parse --abbrev-ref HEAD': 'HEAD' });
    expect(versionFrom({ GIT_BRANCH: 'release/1.2' }, detached)).toEqual({
      version: SHA,
      branch: 'release/1.2',
    });
    expect(() => versionFrom({}, detached)).toThrow(/GIT_BRANCH/);
    expect(() => versionFrom({ GIT_COMMIT: 'not a sha' }, onMain)).toThrow(/GIT_COMMIT/);
  });

  it('refuses, naming the variable, without the broker address or the token', () => {
    expect(() => brokerFrom({ PACT_BROKER_TOKEN: 'x' })).toThrow(Refusal);
    expect(() => brokerFrom({ PACT_BROKER_TOKEN: 'x' })).toThrow(/PACT_BROKER_BASE_URL/);
    expect(() => brokerFrom({ PACT_BROKER_BASE_URL: 'https://b.example' })).toThrow(
      /PACT_BROKER_TOKEN/,
    );
    expect(() => brokerFrom({ ...broker, PACT_BROKER_BASE_URL: 'broker.example' })).toThrow(
      /not an http\(s\) URL/,
    );
    const basic = { PACT_BROKER_USERNAME: 'ci', PACT_BROKER_PASSWORD: 'pw' };
    expect(brokerFrom({ PACT_BROKER_BASE_URL: 'https://b.example', ...basic })).toEqual({
      baseUrl: 'https://b.example',
    });
  });

  it('refuses to publish a pact file that differs from the commit', () => {
    expect(() =>
      requireCommittedPacts(gitAt({ 'status --porcelain -- contracts/pacts': ' M x.json' })),
    ).toThrow(/commit it first/);
    expect(() =>
      requireCommittedPacts(gitAt({ 'status --porcelain -- contracts/pacts': '' })),
    ).not.toThrow();
  });
});

describe('the scripts', () => {
  const ROOT = fileURLToPath(new URL('../', import.meta.url));
  const run = async (script: string, env: Record<string, string>, args: string[] = []) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(PACT_BROKER_|GIT_)/.test(name)),
    );
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', script, ...args],
        { cwd: ROOT, env: { ...clean, ...env } },
      );
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  };

  it('contracts:publish exits 1 and names PACT_BROKER_BASE_URL when it is missing', async () => {
    const { code, output } = await run('contracts/publish.ts', {});
    expect(code).toBe(1);
    expect(output).toMatch(/Refused: PACT_BROKER_BASE_URL is not set/);
  });

  it('contracts:can-i-deploy exits 1 and names PACT_BROKER_TOKEN when it is missing', async () => {
    const { code, output } = await run('contracts/can-i-deploy.ts', {
      PACT_BROKER_BASE_URL: 'https://broker.example.com',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/Refused: PACT_BROKER_TOKEN is not set/);
  });

  it('contracts:can-i-deploy --dry-run prints the command line and runs nothing', async () => {
    const { code, output } = await run(
      'contracts/can-i-deploy.ts',
      { ...broker, GIT_COMMIT: SHA, GIT_BRANCH: 'main' },
      ['--dry-run', '--to-environment', 'test'],
    );
    expect(code).toBe(0);
    expect(output).toContain(
      `pact-broker can-i-deploy --pacticipant berries-shop-web --version ${SHA} --to-environment test --broker-base-url https://broker.example.com`,
    );
    expect(output).not.toContain('s3cret');
  });
});
