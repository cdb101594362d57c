import { type ReactNode, useState } from 'react';
import type { NavigateOptions } from 'wouter';
import { useLocation, useSearch } from 'wouter';
import { PageData, PageDataContext } from '../ui/page-data';
import { pageQueries } from './routes';

// In the browser: the page a link or navigate() is opening, whose loads started at the click,
// while its code may still be on its way. Only the browser sets it (the router's aroundNav).
// eslint-disable-next-line no-restricted-syntax -- module state: the tab's one navigation in progress
let opening: PageData | null = null;

/** A page the app opens itself, rather than the server's first one. */
const openedInApp = (url: string) => Object.assign(new PageData(url), { openedInApp: true });

function urlOf(path: string, search: string): string {
  return search ? `${path}?${search}` : path;
}

function decoded(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/**
 * The page's address as the router reads it (decoded once, the query without its `?`): what a
 * PageData is for, on the server and in the browser alike.
 */
export function pageUrl(pathname: string, search: string): string {
  return urlOf(decoded(pathname), decoded(search.replace(/^\?/, '')));
}

/**
 * The router's aroundNav: starts the next page's loads (the route's loader table entry). Not for
 * the page on screen rewriting its own address (the same path, its history entry replaced), as
 * the search field keeps its text in `q` at each key: no page opens, and the page asks for what
 * it shows itself, when it needs it (spec §9: after a pause in typing, not on every key).
 */
export function startNavigation(
  navigate: (to: string, options?: NavigateOptions) => void,
  to: string,
  options?: NavigateOptions,
): void {
  const url = new URL(to, window.location.href);
  if (options?.replace && url.pathname === window.location.pathname) {
    opening = null;
  } else {
    const next = pageUrl(url.pathname, url.search);
    opening = openedInApp(next).start(pageQueries(next));
  }
  navigate(to, options);
}

/**
 * Gives each page its PageData: the first page gets the server's answers; a later page gets the
 * loads its navigation started (or none, after back and forward or when the page rewrites its own
 * address: the page then loads what it needs itself).
 */
export function PageDataProvider({ first, children }: { first: PageData; children: ReactNode }) {
  const [path] = useLocation();
  const url = urlOf(path, useSearch());
  const [page, setPage] = useState(first);
  let current = page;
  if (page.url !== url) {
    current = opening?.url === url ? opening : openedInApp(url);
    // Stored during render, as React allows for state derived from the location.
    setPage(current);
  }
  return <PageDataContext value={current}>{children}</PageDataContext>;
}
