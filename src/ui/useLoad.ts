import {
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useEffectEvent,
  useState,
} from 'react';
import { errorStatus } from '../api/http';
import { type Query, ShownAnswerContext, usePageData } from './page-data';

export type LoadState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined; httpStatus?: undefined }
  | { status: 'done'; data: T; error?: undefined; httpStatus?: undefined }
  | { status: 'error'; data?: undefined; error: unknown; httpStatus: number | undefined };

type Settled<T> = Exclude<LoadState<T>, { status: 'loading' }>;

/**
 * Loads `query` when the component mounts and whenever its key changes; `reload` loads it again.
 * The page's data comes first: an answer the server embedded renders at once (and is what the
 * server rendered, so hydration matches), a load a navigation started is awaited instead of
 * asked again. An answer for an older key or attempt is never shown.
 */
export function useLoad<T>(query: Query<T>) {
  const page = usePageData();
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<{ request: string; state: Settled<T> } | null>(null);
  const request = `${query.key}#${attempt}`;
  const refused = attempt === 0 ? page?.refused[query.key] : undefined;
  // A 404 is final. Anything else the server could not load (the backend down or late) shows as
  // failed, as the server rendered it, and is asked for again here once the app runs.
  const embedded = attempt === 0 && page !== null && (query.key in page.answers || refused === 404);
  const run = useEffectEvent(
    () => ((attempt === 0 && page?.take(query.key)) || query.load()) as Promise<T>,
  );

  // A page the app opened whose public data the shop's server could not get from the backend
  // (its proxy's 502, 504): the server may still render it from its last good answers, so the
  // page is asked of it whole. Never the server's own page: no loop.
  const askServerInstead = useEffectEvent((error: unknown) => {
    const outage = query.shared && page?.openedInApp && (errorStatus(error) ?? 0) >= 500;
    if (outage) window.location.reload();
    return outage;
  });

  useEffect(() => {
    if (embedded) return;
    let current = true;
    // As a transition, a page full of cards renders in short slices: a slow phone keeps
    // answering taps while it builds (Lighthouse mobile TBT on / about 190 -> 40-110 ms).
    const settle = (state: Settled<T>) =>
      current && startTransition(() => setSettled({ request, state }));
    run().then(
      (data) => settle({ status: 'done', data }),
      (error: unknown) => {
        if (!askServerInstead(error))
          settle({ status: 'error', error, httpStatus: errorStatus(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [request, embedded]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  let state: LoadState<T> = { status: 'loading' };
  if (settled?.request === request) state = settled.state;
  else if (refused) state = { status: 'error', error: null, httpStatus: refused };
  else if (embedded) state = { status: 'done', data: page.answers[query.key] as T };

  const show = useContext(ShownAnswerContext);
  const shown = state.data;
  useEffect(() => {
    if (shown !== undefined) show(query.key, shown);
  }, [show, query.key, shown]);
  return { ...state, reload };
}
