import { startTransition, useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { failureCase, type FailureCase } from '../api/call-failure';
import { errorStatus } from '../api/http';
import { type Answers, type Queries, type Query, usePageData } from './page-data';

export type LoadState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined; httpStatus?: undefined }
  | { status: 'done'; data: T; error?: undefined; httpStatus?: undefined }
  | {
      status: 'error';
      data?: undefined;
      error: unknown;
      httpStatus: number | undefined;
      /** What the shopper is told of it (ui/failure-text.ts). */
      failure: FailureCase;
    };

type Settled = Exclude<LoadState<unknown>, { status: 'loading' }>;

/** A query's load state, with `reload` to ask for it again. */
export type Load<T> = LoadState<T> & { reload: () => void };

/** Each query's load, by its name. */
export type LoadStates<Q extends Queries> = { [Name in keyof Q]: Load<Answers<Q>[Name]> };

/**
 * Loads each of `queries` when the component mounts and whenever its key changes; a query's
 * `reload` loads it again. The page's data comes first: an answer the server embedded renders at
 * once (and is what the server rendered, so hydration matches), a load a navigation started is
 * awaited instead of asked again. An answer for an older key or attempt is never shown.
 */
export function useLoads<Q extends Queries>(queries: Q): LoadStates<Q> {
  const page = usePageData();
  const [attempts, setAttempts] = useState<Record<string, number>>({});
  const [settled, setSettled] = useState<Record<string, Settled>>({});
  // The requests (a key and its attempt) whose answers may still be shown.
  const live = useRef(new Set<string>());

  const entries = Object.entries(queries).map(([name, query]) => {
    const attempt = attempts[name] ?? 0;
    const refused = attempt === 0 ? page?.refused[query.key] : undefined;
    // A 404 is final. Anything else the server could not load (the backend down or late) shows
    // as failed, as the server rendered it, and is asked for again here once the app runs.
    const embedded =
      attempt === 0 && page !== null && (query.key in page.answers || refused === 404);
    return { name, query, attempt, refused, embedded, request: `${query.key}#${attempt}` };
  });
  const wanted = entries.filter((entry) => !entry.embedded);
  const requests = wanted.map((entry) => entry.request).join('\n');

  // A page the app opened whose public data the shop's server could not get from the backend
  // (its proxy's 502, 504): the server may still render it from its last good answers, so the
  // page is asked of it whole. Never the server's own page: no loop.
  const askServerInstead = useEffectEvent((query: Query<unknown>, error: unknown) => {
    const outage = query.shared && page?.openedInApp && (errorStatus(error) ?? 0) >= 500;
    if (outage) window.location.reload();
    return outage;
  });

  const startLoads = useEffectEvent(() => {
    const current = new Set(wanted.map((entry) => entry.request));
    for (const request of live.current) if (!current.has(request)) live.current.delete(request);
    for (const { query, attempt, request } of wanted) {
      if (live.current.has(request) || request in settled) continue;
      live.current.add(request);
      // As a transition, a page full of cards renders in short slices: a slow phone keeps
      // answering taps while it builds (Lighthouse mobile TBT on / about 190 -> 40-110 ms).
      const settle = (state: Settled) =>
        live.current.has(request) &&
        startTransition(() => setSettled((before) => ({ ...before, [request]: state })));
      const loading = (attempt === 0 && page?.take(query.key)) || query.load();
      loading.then(
        (data) => settle({ status: 'done', data }),
        (error: unknown) => {
          if (!askServerInstead(query, error))
            settle({
              status: 'error',
              error,
              httpStatus: errorStatus(error),
              failure: failureCase(error),
            });
        },
      );
    }
  });

  useEffect(() => startLoads(), [requests]);
  useEffect(() => {
    const requests = live.current;
    return () => requests.clear();
  }, []);

  const reload = useCallback(
    (name: string) => setAttempts((before) => ({ ...before, [name]: (before[name] ?? 0) + 1 })),
    [],
  );

  const states: Record<string, Load<unknown>> = {};
  for (const { name, query, refused, embedded, request } of entries) {
    let state: LoadState<unknown> = { status: 'loading' };
    const answer = settled[request];
    if (answer) state = answer;
    else if (refused === 404) {
      state = { status: 'error', error: null, httpStatus: 404, failure: 'error' };
    } else if (refused)
      state = { status: 'error', error: null, httpStatus: undefined, failure: refused };
    else if (embedded) state = { status: 'done', data: page?.answers[query.key] };
    states[name] = { ...state, reload: () => reload(name) };
  }
  // Each state is its query's: a load settles, and the server embeds, under the query's key.
  return states as LoadStates<Q>;
}
