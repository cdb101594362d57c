import { useDebouncedCallback } from '@mantine/hooks';
import { useReducer } from 'react';
import { useSearchParams } from 'wouter';
import { capText, queryOf } from './query';
import { initialSearchInput, searchReducer } from './search-state';
import { useSearchResults } from './useSearchResults';

/** Spec §9: a search runs after this pause in typing. */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search page's state: the field's text kept in the URL's `q`, the query being searched and
 * its results. Typing replaces the URL (no history entry per key) and searches after a pause;
 * submit searches at once; a `q` changed from outside (back/forward) fills the field and searches.
 */
export function useProductSearch() {
  const [params, setParams] = useSearchParams();
  const urlText = capText(params.get('q') ?? '');
  const [input, dispatch] = useReducer(searchReducer, urlText, initialSearchInput);

  // Render-time sync, not an effect: the field and the results never show a frame out of step.
  if (urlText !== input.url) dispatch({ type: 'url', text: urlText });

  const results = useSearchResults(input.query, input.attempt);
  const pause = useDebouncedCallback(
    (text: string) => dispatch({ type: 'paused', text }),
    SEARCH_DEBOUNCE_MS,
  );

  const type = (value: string) => {
    const text = capText(value);
    dispatch({ type: 'typed', text });
    // Only `q` changes: the page the search was opened from (go-back.ts) stays in the URL.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (text === '') next.delete('q');
        else next.set('q', text);
        return next;
      },
      { replace: true },
    );
    if (queryOf(text) === '') pause.cancel();
    else pause(text);
  };

  const submit = () => {
    pause.cancel();
    // Submitting the query that just failed tries it again.
    if (results.status === 'error' && queryOf(input.text) === input.query) {
      dispatch({ type: 'retried' });
    } else {
      dispatch({ type: 'submitted' });
    }
  };

  const retry = () => dispatch({ type: 'retried' });

  /** Typed text that has not been searched yet (the pause is still running). */
  const typing = queryOf(input.text) !== input.query;

  return { text: input.text, query: input.query, typing, results, type, submit, retry };
}
