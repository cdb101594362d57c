import { useCallback, useEffect, useState } from 'react';
import { errorStatus } from '../api/http';

export type LoadState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'done'; data: T; error?: undefined }
  | { status: 'error'; data?: undefined; error: unknown; httpStatus: number | undefined };

/**
 * Runs `load` when the component mounts and whenever `key` changes; `reload` runs it again.
 * A late answer for an old key is ignored, so a fast navigation never shows stale data.
 */
export function useLoad<T>(load: () => Promise<T>, key: unknown = null) {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `load`'s inputs
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (data) => current && setState({ status: 'done', data }),
      (error: unknown) =>
        current && setState({ status: 'error', error, httpStatus: errorStatus(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
