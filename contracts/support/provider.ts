// Verifying a provider against the pact file with the Pact Verifier. Shared by the CLI
// (contracts/verify.ts) and, through it, by `npm test`.
//
// The verifier replays each interaction's request exactly as the pact states it, so it carries no
// cookies. A Django-style backend needs two: `sessionid`, the anonymous visitor whose basket and
// orders the provider states set up, and on PUT/POST/DELETE a `csrftoken` equal to the
// X-CSRFToken header (else every one is 403). The request filter adds them as a browser that got
// the cookie from the basket's answer would; the state-change request carries the same cookies,
// so the backend knows which visitor a state is about.
//
// Pact JS replays through a proxy of its own on 127.0.0.1, and the request reaching the provider
// would name that proxy in its Host header: Django's ALLOWED_HOSTS would refuse it (400) and DRF
// would build absolute URLs with the proxy's port. The filter puts back the provider's host.
import './env';
import { Verifier } from '@pact-foundation/pact';
import type { NextFunction, Request, Response as ExpressResponse } from 'express';
import { PACT_CSRF_TOKEN, PACT_FILE, PACT_SESSION } from './constants';
import { readPactFile } from './pact-file';
import type { Json } from './states';

export interface VerifyOptions {
  providerBaseUrl: string;
  /** POST {state, params, action} here before each interaction; none: states are not set up. */
  stateChangeUrl?: string;
  /** Extra fields of every state-change body (the stub takes `owner`). */
  stateBodyExtras?: Record<string, Json>;
  /** Runs before the states of each interaction are set up (the embedded stub resets). */
  beforeEach?: () => Promise<void>;
  /**
   * Sent with every replayed request (`Authorization` of a gateway, …). `Host` replaces the host
   * of `providerBaseUrl` that replayed requests carry otherwise.
   */
  headers?: Record<string, string>;
  pactFile?: string;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

export interface InteractionFailure {
  description: string;
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

interface StateError {
  state: string;
  params: string;
  message: string;
  /** `HTTP 404`, or the network error: what every set-up has in common when the URL is wrong. */
  problem: string;
}

/** Its params as the handler received them, keys sorted, so pact and handler compare equal. */
const paramsKey = (params: unknown): string =>
  JSON.stringify(params ?? {}, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const BASKET_PATH = '/api/catalog/basket';

/** The Cookie header of the verifier's visitor: the session, and a CSRF cookie when it has one. */
export function pactCookies(csrfToken: string | null): string {
  const session = `sessionid=${PACT_SESSION}`;
  return csrfToken ? `csrftoken=${csrfToken}; ${session}` : session;
}

/** The `csrftoken` of an answer's Set-Cookie headers, or null. */
export function csrfCookieOf(response: Response): string | null {
  for (const line of response.headers.getSetCookie()) {
    const match = /^csrftoken=([^;]*)/.exec(line);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** What the provider's basket answer gave the verifier's visitor: its CSRF token, or why none. */
interface CsrfHandout {
  token: string | null;
  problem?: string;
}

/**
 * A visitor's CSRF token as the browser gets it: from the `Set-Cookie` of the basket, which the
 * app loads first on every visit. Django sets the cookie only for a view that asks for the token
 * (`ensure_csrf_cookie`); a backend that never hands it out gets no cookie here, so its PUT, POST
 * and DELETE answer 403 in the verification exactly as they would for every visitor.
 */
async function csrfFromBasket(baseUrl: string, host: string): Promise<CsrfHandout> {
  try {
    const response = await fetch(`${baseUrl}${BASKET_PATH}`, {
      headers: { Accept: 'application/json', Cookie: pactCookies(null), Host: host },
    });
    await response.arrayBuffer();
    const token = csrfCookieOf(response);
    const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith('csrftoken='));
    if (token && line && /;\s*httponly\s*(;|$)/i.test(line)) {
      return {
        token,
        problem:
          `GET ${BASKET_PATH} set the csrftoken cookie HttpOnly, so the app in the browser cannot` +
          ' read it to send X-CSRFToken, and every PUT, POST and DELETE it sends fails with 403.' +
          ' Leave CSRF_COOKIE_HTTPONLY False (contracts/README.md, "Django settings").',
      };
    }
    if (token) return { token };
    return {
      token: null,
      problem:
        `GET ${BASKET_PATH} (HTTP ${response.status}) set no csrftoken cookie, so a visitor's` +
        ' browser never gets a CSRF token and every PUT, POST and DELETE fails with 403.' +
        ' Decorate the basket view with ensure_csrf_cookie (contracts/README.md, "CSRF").',
    };
  } catch (error) {
    return { token: null, problem: `GET ${BASKET_PATH} failed: ${(error as Error).message}` };
  }
}

/**
 * The replayed request as the browser would send it: the provider's host, the session cookie,
 * and on an unsafe call the CSRF token the provider handed out, as cookie and X-CSRFToken (the
 * app sends the cookie's value). A request the pact sends without X-CSRFToken keeps it left out.
 */
function browserLike(baseUrl: string, host: string, handouts: CsrfHandout[]) {
  return (req: Request, _res: ExpressResponse, next: NextFunction): void => {
    req.headers.host = host;
    // The verifier's visitor in place of the pact's example cookies (the shop's server's calls
    // carry some): the session the states set up, and the token this provider handed out.
    const withCookies = (token: string | null) => {
      req.headers.cookie = pactCookies(token);
      next();
    };
    // Pact JS's own state set-up (`/_pactSetup`) passes through this filter too.
    if (SAFE_METHODS.has(req.method) || req.path.startsWith('/_pact')) {
      withCookies(null);
      return;
    }
    void csrfFromBasket(baseUrl, host).then((handout) => {
      handouts.push(handout);
      if (handout.token && req.headers['x-csrftoken']) req.headers['x-csrftoken'] = handout.token;
      withCookies(handout.token);
    });
  };
}

/** The `Host` of `headers` (any case), and the other headers. */
export function splitHost(headers: Record<string, string>): {
  host?: string;
  others: Record<string, string>;
} {
  let host: string | undefined;
  const others: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'host') host = value;
    else others[name] = value;
  }
  return { host, others };
}

/** An answer's text for a one-line message: an HTML page by its title (Django's error pages). */
export function shortText(body: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const text = title ?? body;
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * What the verifier posts to the state-change URL before an interaction: the state, its params
 * and the action, with the visitor's cookies (contracts/README.md, "Not on Django?").
 */
export function stateChangeRequest(
  state: string,
  params: unknown,
  extras: Record<string, Json> = {},
): { headers: Record<string, string>; body: Record<string, unknown> } {
  return {
    headers: { 'Content-Type': 'application/json', Cookie: pactCookies(PACT_CSRF_TOKEN) },
    body: { state, params: params ?? {}, action: 'setup', ...extras },
  };
}

type StateHandler = (params?: unknown) => Promise<undefined>;

interface StateTally {
  errors: StateError[];
  succeeded: number;
}

function stateHandlers(
  names: string[],
  url: string,
  extras: Record<string, Json>,
  tally: StateTally,
): Record<string, StateHandler> {
  const handlers: Record<string, StateHandler> = {};
  for (const state of names) {
    handlers[state] = async (params) => {
      const { headers, body } = stateChangeRequest(state, params, extras);
      let problem: string | null = null;
      let detail = '';
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        if (!response.ok) {
          problem = `HTTP ${response.status}`;
          detail = shortText(await response.text());
        }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        problem = cause ?? (error instanceof Error ? error.message : String(error));
      }
      if (problem) {
        const why = detail ? `${problem} ${detail}` : problem;
        const message = `state "${state}" ${JSON.stringify(params ?? {})}: ${why}`;
        tally.errors.push({ state, params: paramsKey(params), message, problem });
        throw new Error(message);
      }
      tally.succeeded += 1;
      return undefined;
    };
  }
  return handlers;
}

/** The verifier's report above has everything; the summary keeps each failure to a few lines. */
const MAX_REASONS = 4;

const shorten = (text: string): string => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

interface VerifierMismatch {
  mismatch?: string;
  path?: string;
  type?: string;
  message?: string;
  actual?: string;
}

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

interface VerifierError {
  interaction?: string;
  mismatch?: { type?: string; message?: string; mismatches?: VerifierMismatch[] };
}

/** The verifier rejects with its JSON result as the message; anything else is a crash. */
function failuresOf(error: unknown, descriptions: string[]): InteractionFailure[] {
  const message = error instanceof Error ? error.message : String(error);
  let parsed: { errors?: VerifierError[] };
  try {
    parsed = JSON.parse(message) as { errors?: VerifierError[] };
  } catch {
    return [{ description: '(the verifier did not run)', reasons: [message] }];
  }
  return (parsed.errors ?? []).map(({ interaction = '', mismatch }) => {
    // "Verifying a pact between A and B Given … - <description>": keep the description.
    const description =
      descriptions.find((candidate) => interaction.endsWith(` - ${candidate}`)) ?? interaction;
    const mismatches = mismatch?.mismatches ?? [];
    const all =
      mismatches.length > 0
        ? [...new Set(readableMismatches(mismatches).map(shorten))].sort()
        : [mismatch?.message ?? mismatch?.type ?? 'failed'];
    const reasons =
      all.length > MAX_REASONS
        ? [...all.slice(0, MAX_REASONS), `… and ${all.length - MAX_REASONS} more like these`]
        : all;
    return { description, reasons };
  });
}

export async function verifyProvider(options: VerifyOptions): Promise<VerifyReport> {
  const pactFile = options.pactFile ?? PACT_FILE;
  const pact = readPactFile(pactFile);
  const descriptions = pact.interactions.map((interaction) => interaction.description);
  const stateNames = [
    ...new Set(
      pact.interactions.flatMap((interaction) =>
        (interaction.providerStates ?? []).map((state) => state.name),
      ),
    ),
  ];
  const tally: StateTally = { errors: [], succeeded: 0 };
  const stateErrors = tally.errors;
  const { host, others: headers } = splitHost(options.headers ?? {});
  const baseUrl = options.providerBaseUrl.replace(/\/+$/, '');
  const handouts: CsrfHandout[] = [];
  const verifier = new Verifier({
    providerBaseUrl: baseUrl,
    pactUrls: [pactFile],
    logLevel: options.logLevel ?? 'warn',
    requestFilter: browserLike(baseUrl, host ?? new URL(baseUrl).host, handouts),
    ...(options.beforeEach ? { beforeEach: options.beforeEach } : {}),
    ...(options.stateChangeUrl
      ? {
          stateHandlers: stateHandlers(
            stateNames,
            options.stateChangeUrl,
            options.stateBodyExtras ?? {},
            tally,
          ),
        }
      : {}),
    ...(Object.keys(headers).length > 0 ? { customProviderHeaders: headers } : {}),
  });
  let failures: InteractionFailure[] = [];
  try {
    await verifier.verifyProvider();
  } catch (error) {
    failures = failuresOf(error, descriptions);
  }
  // An interaction whose state was not set up proved nothing, even when its answer matched.
  for (const interaction of pact.interactions) {
    if (failures.some((failure) => failure.description === interaction.description)) continue;
    const missing = (interaction.providerStates ?? []).flatMap(({ name, params }) =>
      stateErrors
        .filter((error) => error.state === name && error.params === paramsKey(params))
        .map((error) => `provider state not set up: ${error.message}`),
    );
    if (missing.length > 0) {
      failures.push({ description: interaction.description, reasons: [...new Set(missing)] });
    }
  }
  const problems = new Set(stateErrors.map((error) => error.problem));
  const [problem] = problems;
  // A wrong path or port fails this way; a view that is there but refuses every state does not.
  const wrongUrl = !problem?.startsWith('HTTP ') || ['HTTP 404', 'HTTP 405'].includes(problem);
  const stateUrlFailure =
    options.stateChangeUrl && tally.succeeded === 0 && problem && problems.size === 1
      ? `The state-change URL ${options.stateChangeUrl} answered ${problem} for every state` +
        ` (${new Set(stateErrors.map((error) => error.state)).size} states), so no interaction` +
        ` had its data set up.` +
        (wrongUrl ? ' Is that the URL of the provider-state view, and is it mounted?' : '') +
        ` First answer: ${stateErrors[0]?.message ?? ''}`
      : undefined;
  const csrfProblem = handouts.find((handout) => handout.problem)?.problem;
  return {
    ok: failures.length === 0 && stateErrors.length === 0 && !csrfProblem,
    total: descriptions.length,
    failures,
    stateErrors: [...new Set(stateErrors.map((error) => error.message))],
    ...(stateUrlFailure ? { stateUrlFailure } : {}),
    ...(csrfProblem ? { csrfProblem } : {}),
  };
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
  for (const failure of report.failures) {
    lines.push(`  ✗ ${failure.description}`);
    for (const reason of failure.reasons) lines.push(`      ${reason}`);
  }
  if (report.stateErrors.length > 0) {
    lines.push(`Provider states that could not be set up (${report.stateErrors.length}):`);
    for (const error of report.stateErrors) lines.push(`  ✗ ${error}`);
  }
  return lines.join('\n');
}
