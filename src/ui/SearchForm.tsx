import type { ReactNode } from 'react';
import { paths } from '../lib/paths';

/**
 * A search form of the shop (the home page's line, the search page's bar). Without JavaScript, or
 * before it has loaded, it is a plain GET of /search?q=…; once the app runs, `onSubmit` searches.
 */
export function SearchForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      role="search"
      action={paths.search()}
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
