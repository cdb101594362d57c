// The stub's name search over a generated catalogue of 10,000 realistic product names, checked
// against a plain regular-expression reading of the rules (not against its own code), and the
// index it keeps between queries, which must follow every change of the list.
import { describe, expect, it } from 'vitest';
import { searchByName } from '../../stub-server/search.ts';
import { generateProducts, type NamedProduct } from './search-catalog.ts';

const products = generateProducts(10_000);
const collator = new Intl.Collator('ru');

const fold = (text: string) => text.toLowerCase().replaceAll('ё', 'е');
const termsOf = (query: string) => fold(query).match(/[\p{L}\p{N}]+/gu) ?? [];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rules as regular expressions: each query word begins some word of the name. */
function expected(items: readonly NamedProduct[], query: string): NamedProduct[] {
  const terms = termsOf(query);
  if (terms.length === 0) return [];
  const patterns = terms.map((t) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escape(t)}`, 'u'));
  const start = new RegExp(`^[^\\p{L}\\p{N}]*${terms.map(escape).join('[^\\p{L}\\p{N}]+')}`, 'u');
  const found = items.filter((p) => patterns.every((re) => re.test(fold(p.name))));
  const byName = (a: NamedProduct, b: NamedProduct) => collator.compare(a.name, b.name);
  const starting = found.filter((p) => start.test(fold(p.name))).sort(byName);
  const inside = found.filter((p) => !start.test(fold(p.name))).sort(byName);
  return [...starting, ...inside];
}

const QUERIES = [
  'мал',
  'малина',
  'Клубника',
  'черн',
  'чёрная',
  'смородина красная',
  'красная смородина',
  'из мал',
  'к',
  'ёлочк',
  '«Полка»',
  'лоток 250',
  'сахаром',
  'джем',
  'zzz',
];

describe('searchByName over 10,000 generated products', () => {
  it('works on a large catalogue where the queries find real work', () => {
    expect(products).toHaveLength(10_000);
    expect(searchByName(products, 'мал').length).toBeGreaterThan(100);
    expect(searchByName(products, 'к').length).toBeGreaterThan(1000);
  });

  it.each(QUERIES)('finds exactly what the rules say, in their order: %s', (query) => {
    const ids = (list: NamedProduct[]) => list.map((p) => p.id);
    expect(ids(searchByName(products, query))).toEqual(ids(expected(products, query)));
  });

  it('puts names that start with the query first', () => {
    const found = searchByName(products, 'мал');
    const first = found.findIndex((p) => !fold(p.name).startsWith('мал'));
    expect(first).toBeGreaterThan(0);
    expect(found.slice(0, first).every((p) => fold(p.name).startsWith('мал'))).toBe(true);
    expect(found.slice(first).some((p) => p.name.startsWith('Варенье из малины'))).toBe(true);
    expect(found.slice(first).every((p) => !fold(p.name).startsWith('мал'))).toBe(true);
  });

  it('trims the query, ignores case, and treats ё as е', () => {
    const plain = searchByName(products, 'смородина черная');
    expect(plain.length).toBeGreaterThan(0);
    expect(searchByName(products, '  СМОРОДИНА ЧЁРНАЯ \t')).toEqual(plain);
    expect(searchByName(products, 'Смородина  Чёрная')).toEqual(plain);
    expect(plain.some((p) => p.name.includes('чёрная'))).toBe(true);
  });

  it('matches a word anywhere in the name, but only from the start of a word', () => {
    const found = searchByName(products, 'сахаром');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((p) => p.name.includes('протёртая с сахаром'))).toBe(true);
    expect(searchByName(products, 'алина')).toEqual([]);
  });

  it('answers a 10,000-character query without failing', () => {
    expect(searchByName(products, 'я'.repeat(10_000))).toEqual([]);
    // The same word again and again finds what the word finds (none starts with the whole text).
    const ids = (list: NamedProduct[]) => list.map((p) => p.id).sort((a, b) => a - b);
    expect(ids(searchByName(products, 'мал '.repeat(2_500)))).toEqual(
      ids(searchByName(products, 'мал')),
    );
  });
});

describe('the index kept between queries', () => {
  const list = () => [
    { id: 1, name: 'Малина' },
    { id: 2, name: 'Клубника садовая' },
  ];

  it('sees a renamed item', () => {
    const items = list();
    expect(searchByName(items, 'мал').map((p) => p.id)).toEqual([1]);
    items[0]!.name = 'Ежевика';
    expect(searchByName(items, 'мал')).toEqual([]);
    expect(searchByName(items, 'ежев').map((p) => p.id)).toEqual([1]);
  });

  it('sees an added, removed or replaced item', () => {
    const items = list();
    expect(searchByName(items, 'мал').map((p) => p.id)).toEqual([1]);
    items.push({ id: 3, name: 'Малина жёлтая' });
    expect(searchByName(items, 'мал').map((p) => p.id)).toEqual([1, 3]);
    items.splice(0, 1);
    expect(searchByName(items, 'мал').map((p) => p.id)).toEqual([3]);
    items[0] = { id: 4, name: 'Джем малиновый' };
    expect(searchByName(items, 'мал').map((p) => p.id)).toEqual([3, 4]);
  });

  it('answers the list items themselves, with their current fields', () => {
    const items = [{ id: 1, name: 'Малина', rest: 5 }];
    searchByName(items, 'мал');
    items[0]!.rest = 0;
    expect(searchByName(items, 'мал')[0]).toBe(items[0]);
  });
});
