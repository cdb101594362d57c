import { useCallback, useEffect, useEffectEvent, useState } from 'react';
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
    run().then(
      (data) => current && setSettled({ request, state: { status: 'done', data } }),
      (error: unknown) =>
        current &&
        setSettled({
          request,
          state: { status: 'error', error, httpStatus: errorStatus(error) },
        }),
    );
    return () => {
      current = false;
    };
  }, [request]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const state: LoadState<T> = settled?.request === request ? settled.state : { status: 'loading' };
  return { ...state, reload };
}
