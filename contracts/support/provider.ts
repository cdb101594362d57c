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
import { type AnswerSeen, BASKET_PATH, causeOf, shortText } from './causes';
import { PACT_CSRF_TOKEN, PACT_FILE, PACT_SESSION } from './constants';
import { type PactInteraction, readPactFile } from './pact-file';
import {
  type InteractionFailure,
  pactLines,
  type VerifierFailure,
  verifierFailures,
  type VerifyReport,
} from './report';
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

interface StateError {
  state: string;
  params: string;
  message: string;
  /** What the state-change URL answered: `HTTP 501 {"detail": …}`, or the network error. */
  answer: string;
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
function browserLike(
  baseUrl: string,
  host: string,
  handouts: CsrfHandout[],
  answers: AnswerSeen[],
) {
  return (req: Request, res: ExpressResponse, next: NextFunction): void => {
    if (!req.path.startsWith('/_pact')) recordAnswer(req, res, answers);
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

/** The most of an answer's body kept: enough for a title and a `detail`. */
const ANSWER_BYTES = 16_384;

/**
 * Keeps what the provider answers to `req` in `answers` (in the order the requests came): the
 * summary reads the cause of a failure from it, such as the HTML of a Django error page.
 */
function recordAnswer(req: Request, res: ExpressResponse, answers: AnswerSeen[]): void {
  let path = req.path;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    // kept as sent
  }
  const answer: AnswerSeen = {
    method: req.method,
    path,
    status: 0,
    contentType: '',
    location: null,
    body: '',
  };
  answers.push(answer);
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown) => {
    if (size >= ANSWER_BYTES || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))) {
      return;
    }
    const bytes = Buffer.from(chunk);
    chunks.push(bytes);
    size += bytes.length;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ExpressResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as ExpressResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk);
    answer.status = res.statusCode;
    answer.contentType = String(res.getHeader('content-type') ?? '');
    const location = res.getHeader('location');
    answer.location = location === undefined ? null : String(location);
    // A compressed body says nothing readable.
    if (!res.getHeader('content-encoding')) {
      answer.body = Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_BYTES);
    }
    return end(chunk, ...rest);
  }) as ExpressResponse['end'];
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
        tally.errors.push({ state, params: paramsKey(params), message, answer: why, problem });
        throw new Error(message);
      }
      tally.succeeded += 1;
      return undefined;
    };
  }
  return handlers;
}

/**
 * Pairs each interaction with what the provider answered to its request: the first answer not
 * yet taken with its method and path, in the order of the file (the order the verifier replays
 * them in). The request a followed redirect makes has another path, and is left out.
 */
export function answersOf(
  interactions: PactInteraction[],
  answers: AnswerSeen[],
): Map<string, AnswerSeen> {
  const taken = new Set<AnswerSeen>();
  const paired = new Map<string, AnswerSeen>();
  for (const { description, request } of interactions) {
    const answer = answers.find(
      (candidate) =>
        !taken.has(candidate) &&
        candidate.method === request.method &&
        candidate.path === request.path,
    );
    if (!answer) continue;
    taken.add(answer);
    paired.set(description, answer);
  }
  return paired;
}

/**
 * Each failing interaction with its cause first and Pact's lines after. An interaction whose
 * state was not set up proved nothing, even when its answer matched: it fails too.
 */
export function explain(
  interactions: PactInteraction[],
  found: VerifierFailure[],
  answers: AnswerSeen[],
  stateErrors: StateError[],
): InteractionFailure[] {
  const answered = answersOf(interactions, answers);
  const byDescription = new Map(
    interactions.map((interaction) => [interaction.description, interaction]),
  );
  const unsetStatesOf = (interaction: PactInteraction | undefined) =>
    (interaction?.providerStates ?? []).flatMap(({ name, params }) => {
      const error = stateErrors.find(
        (candidate) => candidate.state === name && candidate.params === paramsKey(params),
      );
      return error ? [{ state: name, answer: error.answer }] : [];
    });
  const failures = found.map((failure): InteractionFailure => {
    const interaction = byDescription.get(failure.description);
    const cause = causeOf({
      method: interaction?.request.method ?? '',
      path: interaction?.request.path ?? '',
      expectedStatus: interaction?.response.status ?? 0,
      unsetStates: unsetStatesOf(interaction),
      mismatches: failure.mismatches,
      error: failure.error,
      answer: answered.get(failure.description),
    });
    return { description: failure.description, cause, reasons: pactLines(failure) };
  });
  for (const interaction of interactions) {
    if (found.some((failure) => failure.description === interaction.description)) continue;
    const unsetStates = unsetStatesOf(interaction);
    if (unsetStates.length === 0) continue;
    const cause = causeOf({
      method: interaction.request.method,
      path: interaction.request.path,
      expectedStatus: interaction.response.status,
      unsetStates,
      mismatches: [],
    });
    failures.push({
      description: interaction.description,
      cause,
      reasons: ['(its answer matched, but with its data not set up it proves nothing)'],
    });
  }
  return failures;
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
  const answers: AnswerSeen[] = [];
  const verifier = new Verifier({
    providerBaseUrl: baseUrl,
    pactUrls: [pactFile],
    logLevel: options.logLevel ?? 'warn',
    requestFilter: browserLike(baseUrl, host ?? new URL(baseUrl).host, handouts, answers),
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
  let found: VerifierFailure[] = [];
  try {
    await verifier.verifyProvider();
  } catch (error) {
    found = verifierFailures(error, descriptions);
  }
  const failures = explain(pact.interactions, found, answers, stateErrors);
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
