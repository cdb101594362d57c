// Name search for products and sections, pure so it can be tested and benchmarked alone.
//
// Rules: the query is trimmed and compared case-insensitively with `ё` equal to `е`; punctuation
// (quotes, commas, «») is ignored. Every word of the query must be the beginning of some word of
// the name, anywhere in it ("черн" finds «Смородина чёрная»). Names that start with the whole
// query come first, then the rest; each group is alphabetical. An empty query finds nothing.

const collator = new Intl.Collator('ru');

/** Lower case, `ё` -> `е`, words separated by single spaces. */
export function normalizeText(text: string): string {
  return words(text).join(' ');
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replaceAll('ё', 'е')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

export function searchByName<T extends { name: string }>(items: readonly T[], query: string): T[] {
  const terms = words(query);
  if (terms.length === 0) return [];
  const phrase = terms.join(' ');
  const starting: T[] = [];
  const inside: T[] = [];
  for (const item of items) {
    const nameWords = words(item.name);
    const matches = terms.every((term) => nameWords.some((word) => word.startsWith(term)));
    if (!matches) continue;
    if (nameWords.join(' ').startsWith(phrase)) starting.push(item);
    else inside.push(item);
  }
  const byName = (a: T, b: T) => collator.compare(a.name, b.name);
  return [...starting.sort(byName), ...inside.sort(byName)];
}
