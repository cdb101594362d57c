import { useEffect, useState } from 'react';
import { failureCase, type FailureCase } from '../../api/call-failure';
import { searchProducts, searchSections } from '../../api/catalog';
import type { Product, SectionRef } from '../../api/types';
import { usePageData } from '../../ui/page-data';
import { searchQuery } from './queries';

export interface SearchFound {
  query: string;
  sections: SectionRef[];
  products: Product[];
}

export type SearchResults =
  /** Nothing asked yet, or the query is empty. */
  | { status: 'idle' }
  /** `previous`: the last answer, still shown (dimmed) so the grid does not blink on each pause. */
  | { status: 'loading'; previous: SearchFound | undefined }
  | ({ status: 'done' } & SearchFound)
  /** `failure`: what the shopper is told of it (ui/failure-text.ts). */
  | { status: 'error'; failure: FailureCase };

/** How long found products wait for the sections' answer before they show without them. */
export const SECTIONS_GRACE_MS = 300;

type Settled = { request: string } & (
  ({ status: 'done' } & SearchFound) | { status: 'error'; failure: FailureCase }
);

/**
 * Searches sections and products for `query` (again when `attempt` changes). A failed product
 * search is an error; sections that fail, or come more than SECTIONS_GRACE_MS after the
 * products, are left out. A newer query wins:
 * the older requests are aborted, and an answer that still arrives for them is dropped.
 */
export function useSearchResults(query: string, attempt: number): SearchResults {
  const page = usePageData();
  const request = `${attempt}\n${query}`;
  // The page's own search, answered by the server or started by the navigation that opened it.
  const { key } = searchQuery(query);
  const embedded =
    attempt === 0 && query !== '' && page !== null && key in page.answers
      ? (page.answers[key] as SearchFound)
      : undefined;
  // The server's search failed: its page says so (without the app too), until an answer comes.
  const refused = attempt === 0 && query !== '' ? page?.refused[key] : undefined;
  const serverFailure = refused === undefined || refused === 404 ? undefined : refused;
  // The server's answer is the first one shown: the next search keeps it in view, dimmed.
  const [settled, setSettled] = useState<Settled | null>(() =>
    embedded ? { request, status: 'done', ...embedded } : null,
  );

  // Cleared with the field: the next search must not flash the results of an older one.
  if (query === '' && settled !== null) setSettled(null);

  useEffect(() => {
    // Answered already: by the server, or before the page's data changed under the same query
    // (as it does when the field writes the URL at each key). An answer is final for its request.
    if (query === '' || embedded || settled?.request === request) return;
    const controller = new AbortController();
    let current = true;
    const started =
      attempt === 0 ? (page?.take(key) as Promise<SearchFound> | undefined) : undefined;
    if (started) {
      started.then(
        (found) => current && setSettled({ request, status: 'done', ...found }),
        (error: unknown) =>
          current && setSettled({ request, status: 'error', failure: failureCase(error) }),
      );
      return () => {
        current = false;
      };
    }
    // Products are what the shopper searches for; sections are an extra (the spec gives
    // section_search no use), so their failure or delay must not hide products that were found.
    const sections = searchSections(query, controller.signal).catch(() => []);
    searchProducts(query, controller.signal).then(
      async (products) => {
        const late = new Promise<SectionRef[]>((resolve) =>
          setTimeout(() => resolve([]), SECTIONS_GRACE_MS),
        );
        const found = await Promise.race([sections, late]);
        if (current) setSettled({ request, status: 'done', query, sections: found, products });
      },
      (error: unknown) => {
        if (current) setSettled({ request, status: 'error', failure: failureCase(error) });
      },
    );
    return () => {
      current = false;
      controller.abort();
    };
    // `query` and `key` follow `request`; `page`, `embedded` and `settled` may change under the
    // same request (each key the field writes into the URL gives the page new data): no new search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request]);

  if (query === '') return { status: 'idle' };
  if (settled?.request === request) {
    if (settled.status === 'error') return { status: 'error', failure: settled.failure };
    const { query: found, sections, products } = settled;
    return { status: 'done', query: found, sections, products };
  }
  if (embedded) return { status: 'done', ...embedded };
  if (serverFailure) return { status: 'error', failure: serverFailure };
  const previous =
    settled?.status === 'done'
      ? { query: settled.query, sections: settled.sections, products: settled.products }
      : undefined;
  return { status: 'loading', previous };
}
