// How a server-side call to the backend ended, for the metrics (src/server-entry/recorder.ts).
// The one place failed calls are sorted: each outcome is one kind of failure an operator acts on
// differently. Grouped coarser, they are the shopper's three cases: the backend unreachable or
// late (timeout, refused), an error answer (4xx, 5xx), an unreadable answer (bad_shape, too_big,
// redirect).
import { errorStatus } from '../api/http';

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

/** The errors by name: the host's own (host/backend-agent.ts) cannot be imported here. */
const BY_NAME: Record<string, CallOutcome> = {
  DeadlineError: 'timeout',
  AbortError: 'timeout',
  TimeoutError: 'timeout',
  UnexpectedAnswerError: 'bad_shape',
  AnswerTooLargeError: 'too_big',
  BackendRedirectError: 'redirect',
  BackendBusyError: 'refused',
};

/** The outcome of a call that failed with `error` (ofetch's FetchError, or what it wraps). */
export function callOutcome(error: unknown): CallOutcome {
  const status = errorStatus(error);
  if (status !== undefined) return status >= 500 ? '5xx' : '4xx';
  // ofetch wraps what fetch threw (its cause), undici wraps what ended the body (its cause).
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth += 1) {
    const outcome = BY_NAME[cause.name];
    if (outcome) return outcome;
    cause = cause.cause;
  }
  return 'refused';
}
