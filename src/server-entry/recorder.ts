// What the app's server side tells whoever counts (the host's Prometheus metrics,
// host/process/metrics.ts): a small interface handed to createShopServer, so that src/ holds no
// metrics library and no Node-only code. Every label it passes is from a closed list: call names from the table of
// src/api/answer-shapes.ts, outcomes and reasons from the unions below.
import type { CallOutcome } from '../api/call-failure';

export type { CallOutcome };

/** Where a shared answer (src/server-entry/public-answers.ts) came from. */
export type SharedAnswerSource =
  /** Kept in memory and still fresh: no call. */
  | 'memory'
  /** Asked of the backend, and kept. */
  | 'fetched'
  /** The backend failed or was late: the last good answer stood in. */
  | 'stale'
  /** The backend failed and nothing was kept: the page shows "not loaded". */
  | 'failed';

/** The forms the server handles without the app (src/server-entry/forms.ts). */
export type FormName = 'basket' | 'checkout' | 'login';

/** How a checkout posted without the app ended, when it placed no order. */
export type CheckoutRefusal =
  /** The form's own fields, or the backend's 400 on them: the shopper fixes the form. */
  | 'invalid'
  /** The backend did not answer in time before the order went out: nothing ordered. */
  | 'late'
  /** The order went out and no answer came in time: it may have been placed. */
  | 'maybe_placed'
  /** The backend failed or refused otherwise. */
  | 'failed'
  /** Nothing to order: the basket is empty. */
  | 'empty';

export interface ServerRecorder {
  /** One call to the backend: `GET /api/catalog/basket`, how it ended, and how long it took. */
  backendCall(call: string, outcome: CallOutcome, seconds: number): void;
  sharedAnswer(source: SharedAnswerSource): void;
  /** A form posted without the app, and how it ended (a closed list per form). */
  form(form: FormName, outcome: string): void;
  /**
   * A checkout posted without the app placed an order (its attempt's key: a post of the same
   * attempt that gets the first one's answer again is no second order), or did not, and why.
   */
  checkout(end: { placed: string } | { refused: CheckoutRefusal }): void;
}

/** Counts nothing: the server started without metrics. */
export const NO_RECORDER: ServerRecorder = {
  backendCall() {},
  sharedAnswer() {},
  form() {},
  checkout() {},
};
