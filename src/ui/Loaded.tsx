import type { ReactNode } from 'react';
import { ErrorState } from './ErrorState';
import type { Load } from './useLoads';

interface LoadedProps<T> {
  load: Load<T>;
  /** What shows while it loads. */
  pending: ReactNode;
  /** The failure's message (ErrorState's own by default), or what shows instead, with its retry. */
  failed?: string | ((retry: () => void) => ReactNode);
  children: (data: T) => ReactNode;
}

/**
 * One load drawn as a shopper sees it: its placeholder while it loads, a Russian message with
 * `Повторить` when it failed, and `children` with its answer. Every page and block draws its
 * data through this (a route draws its page's critical data so: src/ui/route.tsx).
 */
export function Loaded<T>({ load, pending, failed, children }: LoadedProps<T>) {
  if (load.status === 'loading') return pending;
  if (load.status === 'error') {
    if (typeof failed === 'function') return failed(load.reload);
    return <ErrorState message={failed} onRetry={load.reload} />;
  }
  return children(load.data);
}
