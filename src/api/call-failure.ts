// What went wrong with a call to the backend, in one place: its outcome, fine enough to count
// (the metrics, host/process/metrics.ts: each outcome is one kind of failure an operator acts on
// differently), and the case a shopper is told of, coarser:
//   unreachable  the backend could not be reached, or did not answer in time;
//   error        it answered, with an error;
//   unreadable   it answered in a way the shop cannot read.
// The server's calls fail with the errors of src/server-entry/backend-calls.ts and
// host/backend/backend-agent.ts, known here by name (the host's code is not the app's to import);
// the browser's fail as the shop's /api answers, whose own refusals name their outcome in a header
// (host/backend/backend-proxy.ts). Small and without dependencies: the browser loads it too.
import { FetchError } from 'ofetch';
import { isJsonType } from './json-type';

export type CallOutcome =
  | 'ok'
  /** No answer by the request's deadline (DeadlineError), or the call was ended with it. */
  | 'timeout'
  /** No connection: refused, reset, unresolvable, or every socket to the backend taken. */
  | 'refused'
  | '4xx'
  | '5xx'
  /** Not JSON of the call's declared shape (src/api/answer-shapes.ts). */
  | 'bad_shape'
  /** Over BACKEND_MAX_ANSWER_BYTES. */
  | 'too_big'
  /** A 3xx, which the server never follows. */
  | 'redirect';

export type FailedOutcome = Exclude<CallOutcome, 'ok'>;

export type FailureCase = 'unreachable' | 'error' | 'unreadable';

/** The case a shopper is told of, for each outcome of a failed call. */
export const FAILURE_CASE: Record<FailedOutcome, FailureCase> = {
  timeout: 'unreachable',
  refused: 'unreachable',
  '4xx': 'error',
  '5xx': 'error',
  bad_shape: 'unreadable',
  too_big: 'unreadable',
  redirect: 'unreadable',
};

/** The header with which the shop's /api names the outcome of a call it answers for itself. */
export const OUTCOME_HEADER = 'X-Backend-Outcome';

export function isFailedOutcome(text: unknown): text is FailedOutcome {
  return typeof text === 'string' && Object.hasOwn(FAILURE_CASE, text);
}

/** The outcome of an answer with an error status. */
export function statusOutcome(status: number, json: boolean): FailedOutcome {
  // A gateway's own page stands for a backend it could not reach, or that did not answer it in
  // time (nginx's 502 and 504); the backend's own errors come as JSON.
  if (!json && status === 502) return 'refused';
  if (!json && status === 504) return 'timeout';
  return status >= 500 ? '5xx' : '4xx';
}

/**
 * Error answers the shop's own flows expect and handle, which are no failure to tell the operator
 * of: the backend refused the input (400: a phone, an amount, the credentials), the item does not
 * exist (404: its -404 page), the order is still being placed (409: asked again), a token it no
 * longer knows (401 to a call that carried one: dropped), or wrong credentials (401 to the login,
 * as some token backends answer). A 401 to any other call is one the shop did not expect.
 */
export function expectedRefusal(call: {
  path: string;
  status: number;
  tokenSent: boolean;
}): boolean {
  const { path, status, tokenSent } = call;
  if (status === 400 || status === 404 || status === 409) return true;
  return status === 401 && (tokenSent || /\/auth\/token\/$/.test(path));
}

/** Errors by name, down a chain of causes: what the failed call met. */
const OUTCOME_OF_ERROR: Partial<Record<string, FailedOutcome>> = {
  // The request's deadline (backend-calls.ts), a timeout of fetch's, an abort.
  DeadlineError: 'timeout',
  TimeoutError: 'timeout',
  AbortError: 'timeout',
  // Every socket to the backend taken (host/backend/backend-agent.ts): the call was never made.
  BackendBusyError: 'refused',
  BackendRedirectError: 'redirect',
  AnswerTooLargeError: 'too_big',
  // Not JSON, or not of the call's shape (backend-calls.ts).
  UnexpectedAnswerError: 'bad_shape',
};

/** What a failed call met. Anything not known (a refused connection, a reset) is `refused`. */
export function callOutcome(error: unknown): FailedOutcome {
  if (error instanceof FetchError) {
    const named = error.response?.headers.get(OUTCOME_HEADER);
    if (isFailedOutcome(named)) return named;
    const status = error.response?.status ?? error.statusCode;
    if (status !== undefined && status >= 400) {
      const type = error.response?.headers.get('content-type');
      return statusOutcome(status, error.response === undefined || isJsonType(type));
    }
  }
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    const { name } = cause as { name?: unknown };
    const known = typeof name === 'string' && Object.hasOwn(OUTCOME_OF_ERROR, name);
    const outcome = known ? OUTCOME_OF_ERROR[name] : undefined;
    if (outcome) return outcome;
    cause = (cause as { cause?: unknown }).cause;
  }
  return 'refused';
}

/** The case a shopper is told of, for a failed call. */
export function failureCase(error: unknown): FailureCase {
  return FAILURE_CASE[callOutcome(error)];
}
