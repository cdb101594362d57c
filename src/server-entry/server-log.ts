// What the app's server side tells the operator's log: a small interface handed to
// createShopServer beside the recorder (src/server-entry/recorder.ts), so that src/ holds no
// logging library. The host writes it in its pino log (host/process/request-log.ts), with the
// request's id.
import type { FailedOutcome, FailureCase } from '../api/call-failure';

/** A call to the backend that failed, as the operator reads it. */
export interface FailedCall {
  /** The request's id: its access line, nginx's and the backend's carry the same. */
  id?: string;
  /** The case the shopper is told of, and the finer outcome the metrics count it under. */
  case: FailureCase;
  outcome: FailedOutcome;
  /** `GET /api/catalog/product_retrieve/7`: as sent, without its query. */
  call: string;
  /** What it met, in a few words: its status, the error under it, the shape's problem. */
  why: string;
}

export interface ServerLog {
  callFailed(failed: FailedCall): void;
}

/** Without a host's log (a test's own server side): the console, so that no failure goes untold. */
export const CONSOLE_LOG: ServerLog = {
  callFailed: ({ case: failure, outcome, call, why }) =>
    console.warn(`backend call failed: ${failure} (${outcome}): ${call}: ${why}`),
};
