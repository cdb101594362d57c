export type CatalogKind = 'section' | 'selection' | 'product';

/** The id of a catalogue route, or null when it is not a positive integer (then no call is made). */
export function parseCatalogId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Spec §8: where a missing section, selection or product sends the shopper. */
export function notFoundPath(kind: CatalogKind, raw: string | number): string {
  return `/${kind}-404/${encodeURIComponent(String(raw))}`;
}
