// The summary `npm run contracts:verify` prints after the verifier's own report: for each failing
// interaction its cause first (contracts/support/causes.ts), then which interaction it is and
// Pact's own lines, and at the end a table of the failures by cause.
import { type Cause, CAUSE_KINDS, type CauseKind, type VerifierMismatch } from './causes';

export interface InteractionFailure {
  description: string;
  /** Why it failed, in a backend developer's words: its first line in the summary. */
  cause: Cause;
  /** Pact's own lines: what it found different. */
  reasons: string[];
}

export interface VerifyReport {
  ok: boolean;
  total: number;
  failures: InteractionFailure[];
  /** State set-ups that failed: the verifier only logs them, the report makes them count. */
  stateErrors: string[];
  /**
   * Set when the state-change URL failed every set-up the same way (a wrong URL, a view not
   * mounted): one line says so instead of a failure per interaction.
   */
  stateUrlFailure?: string;
  /** Set when the provider's basket handed the visitor no CSRF token (see csrfFromBasket). */
  csrfProblem?: string;
}

/** What the verifier found wrong with one interaction, as it reported it. */
export interface VerifierFailure {
  description: string;
  mismatches: VerifierMismatch[];
  /** The verifier's own message when it has no mismatches (the request failed). */
  error?: string;
}

/** The verifier's report above has everything; the summary keeps each failure to a few lines. */
const MAX_REASONS = 4;

const shorten = (text: string): string => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

/**
 * The verifier's mismatches as a reader wants them: a null where a pattern was expected reads
 * "Expected null to match …" (the verifier says "Expected ''"), and the two halves of a
 * "null or a number" rule make one line.
 */
export function readableMismatches(mismatches: VerifierMismatch[]): string[] {
  const lines = new Map<string, string[]>();
  for (const item of mismatches) {
    let text = item.mismatch ?? item.message ?? item.type ?? 'failed';
    if (item.actual === 'null')
      text = text.replace(/^Expected '' to match/, 'Expected null to match');
    const key = item.path ?? '';
    const texts = lines.get(key) ?? [];
    // A rule under several matchers (the basket's keyed values) reports the same line twice.
    if (!texts.includes(text)) lines.set(key, [...texts, text]);
  }
  return [...lines].flatMap(([path, texts]) => {
    const nullHalf = texts.findIndex((text) => / to be a null value$/.test(text));
    const merged =
      nullHalf >= 0 && texts.length === 2 ? [`${texts[1 - nullHalf]}, or null`] : texts;
    return merged.map((text) => [path, text].filter(Boolean).join(': '));
  });
}

/** Pact's lines for a failure, a few at most. */
export function pactLines({ mismatches, error }: VerifierFailure): string[] {
  const all =
    mismatches.length > 0
      ? [...new Set(readableMismatches(mismatches).map(shorten))].sort()
      : [error ?? 'failed'];
  return all.length > MAX_REASONS
    ? [...all.slice(0, MAX_REASONS), `… and ${all.length - MAX_REASONS} more like these`]
    : all;
}

interface VerifierError {
  interaction?: string;
  mismatch?: { type?: string; message?: string; mismatches?: VerifierMismatch[] };
}

/** The verifier rejects with its JSON result as the message; anything else is a crash. */
export function verifierFailures(error: unknown, descriptions: string[]): VerifierFailure[] {
  const message = error instanceof Error ? error.message : String(error);
  let parsed: { errors?: VerifierError[] };
  try {
    parsed = JSON.parse(message) as { errors?: VerifierError[] };
  } catch {
    return [{ description: '(the verifier did not run)', mismatches: [], error: message }];
  }
  return (parsed.errors ?? []).map(({ interaction = '', mismatch }) => ({
    // "Verifying a pact between A and B Given … - <description>": keep the description.
    description:
      descriptions.find((candidate) => interaction.endsWith(` - ${candidate}`)) ?? interaction,
    mismatches: mismatch?.mismatches ?? [],
    error: mismatch?.message ?? mismatch?.type,
  }));
}

/** How many failures each cause has, most first (the order of CAUSE_KINDS among equals). */
export function failuresByCause(failures: InteractionFailure[]): [CauseKind, number][] {
  const kinds = Object.keys(CAUSE_KINDS) as CauseKind[];
  const counts = new Map<CauseKind, number>();
  for (const { cause } of failures) counts.set(cause.kind, (counts.get(cause.kind) ?? 0) + 1);
  return [...counts].sort(([a, m], [b, n]) => n - m || kinds.indexOf(a) - kinds.indexOf(b));
}

export function formatReport(report: VerifyReport): string {
  const lines: string[] = [];
  const failed = report.failures.length;
  lines.push(
    `Pact verification: ${report.total} interactions, ${report.total - failed} passed, ${failed} failed.`,
  );
  if (report.stateUrlFailure) {
    lines.push(`  ✗ ${report.stateUrlFailure}`);
    return lines.join('\n');
  }
  if (report.csrfProblem) lines.push(`  ✗ CSRF: ${report.csrfProblem}`);
  for (const { description, cause, reasons } of report.failures) {
    lines.push(`  ✗ ${cause.text}`, `      in ${description}`);
    for (const reason of reasons) lines.push(`      pact: ${reason}`);
  }
  if (failed > 0) {
    lines.push('Failures by cause:');
    for (const [kind, count] of failuresByCause(report.failures)) {
      lines.push(`  ${String(count).padStart(3)}  ${CAUSE_KINDS[kind]}`);
    }
  }
  return lines.join('\n');
}
