import { act, renderHook, waitFor } from '@testing-library/react';
import { FetchError } from 'ofetch';
import { describe, expect, it } from 'vitest';
import { type Query, query } from '../../../src/ui/page-data';
import { useLoads } from '../../../src/ui/useLoads';

/** One query's load, as a page reads it. */
const useLoad = <T,>(one: Query<T>) => useLoads({ one }).one;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useLoads', () => {
  it('shows loading, then the data', async () => {
    const answer = deferred<string>();
    const { result } = renderHook(() => useLoad(query('1', () => answer.promise)));
    expect(result.current.status).toBe('loading');
    await act(async () => answer.resolve('Малина'));
    expect(result.current).toMatchObject({ status: 'done', data: 'Малина' });
  });

  it('never shows the late answer of an older key', async () => {
    const answers: Record<number, ReturnType<typeof deferred<string>>> = {
      1: deferred(),
      2: deferred(),
    };
    const { result, rerender } = renderHook(
      ({ id }) => useLoad(query(`p/${id}`, () => answers[id]!.promise)),
      {
        initialProps: { id: 1 },
      },
    );
    rerender({ id: 2 });
    await act(async () => answers[2]!.resolve('Клубника'));
    await act(async () => answers[1]!.resolve('Малина'));
    expect(result.current).toMatchObject({ status: 'done', data: 'Клубника' });
  });

  it('reports the HTTP status of a failure and loads again on reload', async () => {
    let calls = 0;
    const { result } = renderHook(() =>
      useLoad(
        query('p', async () => {
          calls += 1;
          if (calls === 1) {
            const error = new FetchError('Not Found');
            Object.assign(error, { statusCode: 404 });
            throw error;
          }
          return 'Черника';
        }),
      ),
    );
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.httpStatus).toBe(404);
    act(() => result.current.reload());
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current).toMatchObject({ status: 'done', data: 'Черника' }));
  });
});
