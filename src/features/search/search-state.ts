import { capText, queryOf } from './query';

/**
 * The search page's input state. `text` is what the field shows; `query` is what is being
 * searched (it changes on submit, after a pause in typing, or when the URL changes); `attempt`
 * counts retries of the same query; `url` is the last `q` read from the URL, so a change made
 * elsewhere (back/forward, a link) is told apart from the page's own writes while typing.
 */
export interface SearchInput {
  text: string;
  query: string;
  attempt: number;
  url: string;
}

export type SearchAction =
  /** A keystroke (or the clear button). */
  | { type: 'typed'; text: string }
  /** The pause after typing `text` is over. */
  | { type: 'paused'; text: string }
  /** Enter or the search icon. */
  | { type: 'submitted' }
  /** `Повторить` after a failure. */
  | { type: 'retried' }
  /** The URL's `q` is now `text`. */
  | { type: 'url'; text: string };

export function initialSearchInput(urlText: string): SearchInput {
  const text = capText(urlText);
  return { text, query: queryOf(text), attempt: 0, url: text };
}

function withQuery(state: SearchInput, query: string): SearchInput {
  return query === state.query ? state : { ...state, query };
}

export function searchReducer(state: SearchInput, action: SearchAction): SearchInput {
  switch (action.type) {
    case 'typed': {
      const text = capText(action.text);
      if (text === state.text) return state;
      // An empty field shows nothing at once: there is nothing to wait for.
      return queryOf(text) === '' ? { ...state, text, query: '' } : { ...state, text };
    }
    case 'paused':
      // A pause for a text the field no longer shows (the URL replaced it) runs nothing.
      return capText(action.text) === state.text ? withQuery(state, queryOf(state.text)) : state;
    case 'submitted':
      return withQuery(state, queryOf(state.text));
    case 'retried':
      return state.query === '' ? state : { ...state, attempt: state.attempt + 1 };
    case 'url': {
      const url = capText(action.text);
      if (url === state.url) return state;
      // The page's own write while typing: the field already shows it, the pause will search.
      if (url === state.text) return { ...state, url };
      return { ...state, url, text: url, query: queryOf(url) };
    }
  }
}
