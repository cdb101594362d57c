import { type Redirect, redirectTo, type RouteData } from '../../ui/route';
import type { Queries } from '../../ui/page-data';
import { paths } from '../../lib/paths';

export type CatalogKind = 'section' | 'selection' | 'product';

/** The id of a catalogue route, or null when it is not a positive integer (then no call is made). */
export function parseCatalogId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Spec §8: where a missing section, selection or product sends the shopper. */
export function notFoundPath(kind: CatalogKind, raw: string | number): string {
  return paths.missing[kind](raw);
}

/**
 * The data of the catalogue page of `kind` at the id `raw`: `criticalOf(id)` (the page's title
 * and heading are the item's), and a 404 answer of it sends the shopper to the item's -404 page
 * (spec §8); an id that is not one goes there without a call.
 */
export function catalogData<C extends Queries>(
  kind: CatalogKind,
  raw: string | undefined,
  criticalOf: (id: number) => C,
): RouteData<C> | Redirect {
  const id = parseCatalogId(raw);
  if (id === null) return redirectTo(notFoundPath(kind, raw ?? ''));
  return { critical: criticalOf(id), missing: notFoundPath(kind, id) };
}
