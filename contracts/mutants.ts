// `npm run contracts:mutants`: does a backend that passes the pact work in front of the shop?
// Each mistake of contracts/mutants/mistakes.ts is applied to a copy of the reference Django
// backend, one at a time; the copy is started, a shopper walks the shop in front of it (the
// production server from dist/, pages and forms without JavaScript: contracts/mutants/shopper.ts),
// then `npm run contracts:verify` checks it against the committed pact. It prints each mistake's
// first failing line of the verification, a table, and
//   pact caught N of M shop-breaking mistakes; K false alarms on H harmless ones
// and exits 1 when a mistake that breaks the shop passes the pact (a gap in the pact), when its
// first failing line does not name its cause (the summary would send a backend developer
// looking elsewhere), when a harmless difference fails it (a false alarm), or when the shopper
// does not see what a mistake is meant to break, or sees a harmless one break (the list or the
// path is wrong).
//   --only TEXT   only the mutants whose name contains TEXT (repeatable)
// Needs `npm run build` first, and Debian's Django (see contracts/django-reference.test.ts).
import './support/env';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startShopServer } from '../host/app';
import { startDjangoBackend, STATES_PATH } from './django/reference/serve';
import { type Mutant, MUTANTS } from './mutants/mistakes';
import { shopperPath } from './mutants/shopper';
import { runVerifyCli } from './support/verify-cli';

const DJANGO_DIR = fileURLToPath(new URL('./django/', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const SLOW_MACHINE_MS = 120_000;

interface Outcome {
  mutant: Mutant;
  /** The verifier's first failing line, or null when the pact passed. */
  pactFailure: string | null;
  /** What the shopper saw go wrong, or null when the path worked. */
  shopperFailure: string | null;
}

/** A copy of contracts/django with the mutant's edits: its reference/ project directory. */
function mutatedCopy(mutant: Mutant | null): { projectDir: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'berries-mutant-'));
  const copy = join(root, 'django');
  cpSync(DJANGO_DIR, copy, {
    recursive: true,
    filter: (source) => !source.includes('__pycache__'),
  });
  for (const edit of mutant?.edits ?? []) {
    const file = join(copy, 'reference', edit.file);
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf(edit.find);
    if (at < 0 || text.indexOf(edit.find, at + 1) >= 0) {
      rmSync(root, { recursive: true, force: true });
      throw new Error(
        `${mutant?.name}: ${edit.file} must hold exactly once:\n${edit.find}\n(the reference backend changed: update contracts/mutants/mistakes.ts)`,
      );
    }
    writeFileSync(file, text.slice(0, at) + edit.replace + text.slice(at + edit.find.length));
  }
  return {
    projectDir: join(copy, 'reference'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The first line that names a failure in the verifier's summary. */
function firstFailingLine(summary: string, output: string): string {
  const line = summary.split('\n').find((text) => text.trimStart().startsWith('✗'));
  return (line ?? (summary.split('\n')[0] || output.trim().split('\n').pop()) ?? 'failed').trim();
}

/**
 * The reference backend's database and media just after migrate and seed: each mutant starts
 * from a copy (unless its edits change what the seed writes), the unchanged backend's first.
 */
let seeded: string | null = null;

async function tryOne(mutant: Mutant | null): Promise<Omit<Outcome, 'mutant'>> {
  const { projectDir, remove } = mutatedCopy(mutant);
  try {
    let backend;
    try {
      const seededFrom = mutant?.reseeds ? undefined : (seeded ?? undefined);
      backend = await startDjangoBackend({ projectDir, seededFrom });
      if (mutant === null) {
        // Nothing has asked it anything yet but whether it is up: the seed as it is.
        seeded = mkdtempSync(join(tmpdir(), 'berries-mutant-seed-'));
        cpSync(backend.dataDir, seeded, { recursive: true });
      }
    } catch (error) {
      // A mistake that keeps the backend from starting is noticed by anyone, the pact included.
      const why = `the backend does not start: ${
        String(error)
          .split('\n')
          .findLast((line) => line.trim()) ?? ''
      }`;
      return { pactFailure: why, shopperFailure: why };
    }
    try {
      // The shopper first, on the seed as it is: the pact's states change rows it reads.
      // Budgets far above any answer: on a busy machine a slow page must not read as a broken one.
      const shop = await startShopServer({
        port: 0,
        apiTarget: backend.url,
        dataTimeoutMs: SLOW_MACHINE_MS,
        formTimeoutMs: SLOW_MACHINE_MS,
      });
      let shopperFailure: string | null;
      try {
        shopperFailure = await shopperPath(shop.url);
      } finally {
        await shop.close();
      }
      const args = ['--provider-base-url', backend.url];
      args.push('--state-change-url', `${backend.url}${STATES_PATH}`);
      const { code, output, summary } = await runVerifyCli(args);
      const pactFailure = code === 0 ? null : firstFailingLine(summary, output);
      return { pactFailure, shopperFailure };
    } finally {
      await backend.stop();
    }
  } finally {
    remove();
  }
}

const cell = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

function table(outcomes: Outcome[]): string {
  const rows = outcomes.map(({ mutant, pactFailure, shopperFailure }) => [
    mutant.name,
    pactFailure === null ? 'passes' : `fails: ${pactFailure.replace(/^✗\s*/, '')}`,
    shopperFailure === null ? 'works' : `broken: ${shopperFailure}`,
  ]);
  // The pact's column whole: its first failing line is what a backend developer reads first.
  const widths = [58, Math.max(...rows.map((row) => row[1]!.length)), 70];
  const line = (cells: string[]) =>
    `| ${cells.map((text, i) => cell(text, widths[i]!)).join(' | ')} |`;
  return [
    line(['mistake', 'pact', 'shopper']),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { only: { type: 'string', multiple: true } },
  });
  if (!existsSync(join(DIST, 'client')) && !existsSync(join(DIST, 'server'))) {
    console.error('contracts:mutants needs the build: run `npm run build` first.');
    return 2;
  }
  const only = values.only ?? [];
  const chosen = MUTANTS.filter(
    (mutant) => only.length === 0 || only.some((text) => mutant.name.includes(text)),
  );
  const started = Date.now();

  // The unchanged copy must pass both, or no mutant's result means anything.
  const control = await tryOne(null);
  if (control.pactFailure || control.shopperFailure) {
    console.error('The reference backend itself does not pass:');
    console.error(`  pact: ${control.pactFailure ?? 'passes'}`);
    console.error(`  shopper: ${control.shopperFailure ?? 'works'}`);
    return 1;
  }

  const outcomes: Outcome[] = [];
  for (const mutant of chosen) {
    const outcome = { mutant, ...(await tryOne(mutant)) };
    outcomes.push(outcome);
    console.log(`${mutant.name}`);
    console.log(`    pact:    ${outcome.pactFailure ?? 'passes'}`);
    console.log(`    shopper: ${outcome.shopperFailure ?? 'works'}`);
  }

  const breaking = outcomes.filter((outcome) => outcome.mutant.breaksShop);
  const harmless = outcomes.filter((outcome) => !outcome.mutant.breaksShop);
  const caught = breaking.filter((outcome) => outcome.pactFailure !== null);
  const falseAlarms = harmless.filter((outcome) => outcome.pactFailure !== null);
  const problems = [
    ...breaking
      .filter((outcome) => outcome.pactFailure === null)
      .map(({ mutant }) => `the pact misses «${mutant.name}»: ${mutant.why}`),
    ...breaking
      .filter(({ mutant, pactFailure }) => pactFailure !== null && !mutant.cause?.test(pactFailure))
      .map(
        ({ mutant, pactFailure }) =>
          `the first failing line of «${mutant.name}» does not name its cause (${String(mutant.cause ?? 'none given')}): ${pactFailure}`,
      ),
    ...breaking
      .filter((outcome) => outcome.shopperFailure === null)
      .map(({ mutant }) => `the shopper's path does not notice «${mutant.name}» (${mutant.why})`),
    ...falseAlarms.map(
      ({ mutant, pactFailure }) => `false alarm on «${mutant.name}»: ${pactFailure}`,
    ),
    ...harmless
      .filter((outcome) => outcome.shopperFailure !== null)
      .map(({ mutant, shopperFailure }) => `«${mutant.name}» is not harmless: ${shopperFailure}`),
  ];
  console.log(`\n${table(outcomes)}\n`);
  for (const problem of problems) console.log(`✗ ${problem}`);
  console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
  console.log(
    `pact caught ${caught.length} of ${breaking.length} shop-breaking mistakes; ${falseAlarms.length} false alarms on ${harmless.length} harmless ones`,
  );
  return problems.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} finally {
  if (seeded) rmSync(seeded, { recursive: true, force: true });
}
