import { createContext, useContext } from 'react';
import type { FailureCase } from '../api/call-failure';
import type { Api } from '../api/http';

/**
 * One piece of data a page shows: a key that names it (the same on the server and in the browser)
 * and how to load it through src/api: with the browser's client, or with the server's client of
 * one request. `shared`: the same for every visitor (the catalogue, not their orders), so the
 * server may keep it and show it again while the backend is down.
 */
export interface Query<T> {
  key: string;
  load: (api?: Api) => Promise<T>;
  shared: boolean;
  /**
   * What the answer shows, named as the backend's change hook names what changed
   * (src/lib/shown-data.ts): a change renews the pages and kept answers that show it. A method,
   * so that a page's list of queries of any answer type holds it.
   */
  shows(answer: T): string[];
}

/** A page's queries, each by the name the page reads it by. */
export type Queries = Record<string, Query<unknown>>;

/** The answer of each of `Q`'s queries, by the same names. */
export type Answers<Q extends Queries> = {
  [Name in keyof Q]: Q[Name] extends Query<infer T> ? T : never;
};

/**
 * The answers of `queries` there are (each read by `answerOf`), by their names. The one place
 * the types of a page's answers are joined to their names: an answer is stored under its query's
 * key, so it is that query's.
 */
export function answersOf<Q extends Queries>(
  queries: Q,
  answerOf: (query: Query<unknown>) => unknown,
): Partial<Answers<Q>> {
  const answers: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries)) {
    const answer = answerOf(query);
    if (answer !== undefined) answers[name] = answer;
  }
  return answers as Partial<Answers<Q>>;
}

/** Whether `answers` has the answer of each of `queries`. */
export function hasAll<Q extends Queries>(
  answers: Partial<Answers<Q>>,
  queries: Q,
): answers is Answers<Q> {
  return Object.keys(queries).every((name) => name in answers);
}

/** A visitor's own data: loaded for them alone, never kept. */
export function query<T>(key: string, load: (api?: Api) => Promise<T>): Query<T> {
  return { key, load, shared: false, shows: () => [] };
}

/**
 * Data every visitor sees alike (spec §7's catalogue and content calls), and what its answer
 * shows.
 */
export function sharedQuery<T>(
  key: string,
  load: (api?: Api) => Promise<T>,
  shows: (answer: T) => string[],
): Query<T> {
  return { key, load, shared: true, shows };
}

/**
 * What the shop's server says of a form the visitor posted without the app, on the page it
 * answers with: a message (a basket change that did not land), or the form again, as it was
 * filled in, with the message of each field that failed.
 */
export interface FormOutcome {
  notice?: string;
  values?: Record<string, string>;
  errors?: Record<string, string>;
}

/** How a load the server made failed: not found, or the case of any other failure. */
export type Refusal = 404 | FailureCase;

/**
 * The data of the page at `url`: answers the server already has (embedded in the HTML and
 * handed to hydration), and loads a client-side navigation started before the page rendered.
 * Each page gets a new one, so an answer never outlives the page it was loaded for.
 */
export class PageData {
  readonly pending = new Map<string, Promise<unknown>>();
  /** The app opened this page itself (a link, navigate()): its data loads in the browser. */
  openedInApp = false;

  constructor(
    readonly url: string,
    readonly answers: Record<string, unknown> = {},
    /**
     * Loads the server saw fail: 404 (for a missing product, a redirect the server answers
     * with), or the case the shopper is told of (the backend down, an error, an odd answer).
     */
    readonly refused: Record<string, Refusal> = {},
    readonly outcome: FormOutcome = {},
  ) {}

  /** Starts the loads the route declares (its loader table entry). */
  start(queries: Query<unknown>[]): this {
    for (const { key, load } of queries) {
      if (key in this.answers || key in this.refused || this.pending.has(key)) continue;
      const loading = load();
      // Read by the page when it renders; a failure it never reads is not unhandled.
      loading.catch(() => {});
      this.pending.set(key, loading);
    }
    return this;
  }

  /** What the server (or a load) answered for `query`; undefined when it has not. */
  answerOf = (query: Query<unknown>): unknown => this.answers[query.key];

  /** The load already under way for `key`, handed out once. */
  take(key: string): Promise<unknown> | undefined {
    const loading = this.pending.get(key);
    this.pending.delete(key);
    return loading;
  }
}

export const PageDataContext = createContext<PageData | null>(null);

export function usePageData(): PageData | null {
  return useContext(PageDataContext);
}
