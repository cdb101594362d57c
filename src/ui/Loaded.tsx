import type { ReactNode } from 'react';
import type { FailureCase } from '../api/call-failure';
import { ErrorState } from './ErrorState';
import type { Load } from './useLoads';

interface LoadedProps<T> {
  load: Load<T>;
  /** What shows while it loads. */
  pending: ReactNode;
  /**
   * What could not be done, as the failure's message begins («Не удалось загрузить новости»);
   * ErrorState's own by default. The message goes on with why, by the failure's case.
   */
  what?: string;
  /** What shows instead of ErrorState when it failed, with its retry and the failure's case. */
  failed?: (retry: () => void, failure: FailureCase) => ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * One load drawn as a shopper sees it: its placeholder while it loads, a Russian message with
 * `Повторить` when it failed, and `children` with its answer. Every page and block draws its
 * data through this (a route draws its page's critical data so: src/ui/route.tsx).
 */
export function Loaded<T>({ load, pending, what, failed, children }: LoadedProps<T>) {
  if (load.status === 'loading') return pending;
  if (load.status === 'error') {
    if (failed) return failed(load.reload, load.failure);
    return <ErrorState what={what} failure={load.failure} onRetry={load.reload} />;
  }
  return children(load.data);
}
