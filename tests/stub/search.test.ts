import { describe, expect, it } from 'vitest';
import { normalizeText, searchByName } from '../../stub-server/search.ts';

const names = (items: { name: string }[]) => items.map((item) => item.name);
const items = (...list: string[]) => list.map((name, id) => ({ id, name }));

describe('searchByName', () => {
  const catalogue = items(
    'Смородина чёрная',
    'Черника',
    'Саженец смородины чёрной',
    'Клубника «Альбион»',
    'Рассада клубники «Альбион», 5 шт',
    'Клюква сушёная',
    'Ёжевичный джем',
    'Черешня',
  );

  it('normalises case, ё and punctuation', () => {
    expect(normalizeText('  Клубника «Альбион», 5 ШТ ')).toBe('клубника альбион 5 шт');
    expect(normalizeText('Ёлка, ЁЖ')).toBe('елка еж');
  });

  it('is case-insensitive and trims', () => {
    expect(names(searchByName(catalogue, '  ЧЕРНИКА  '))).toEqual(['Черника']);
  });

  it('treats ё as е both ways', () => {
    expect(names(searchByName(catalogue, 'черн'))).toEqual([
      'Черника',
      'Саженец смородины чёрной',
      'Смородина чёрная',
    ]);
    expect(names(searchByName(catalogue, 'ежевичн'))).toEqual(['Ёжевичный джем']);
    expect(names(searchByName(catalogue, 'сушеная'))).toEqual(['Клюква сушёная']);
  });

  it('matches a word anywhere, names starting with the query first, each group alphabetical', () => {
    expect(names(searchByName(catalogue, 'клубник'))).toEqual([
      'Клубника «Альбион»',
      'Рассада клубники «Альбион», 5 шт',
    ]);
    expect(names(searchByName(catalogue, 'альбион'))).toEqual([
      'Клубника «Альбион»',
      'Рассада клубники «Альбион», 5 шт',
    ]);
    expect(names(searchByName(catalogue, 'смородин'))).toEqual([
      'Смородина чёрная',
      'Саженец смородины чёрной',
    ]);
  });

  it('every query word must begin some word of the name', () => {
    expect(names(searchByName(catalogue, 'клубника альб'))).toEqual(['Клубника «Альбион»']);
    expect(names(searchByName(catalogue, 'альб клуб'))).toEqual([
      'Клубника «Альбион»',
      'Рассада клубники «Альбион», 5 шт',
    ]);
    expect(names(searchByName(catalogue, 'ника'))).toEqual([]);
  });

  it('an empty or blank query finds nothing', () => {
    expect(searchByName(catalogue, '')).toEqual([]);
    expect(searchByName(catalogue, '   ')).toEqual([]);
    expect(searchByName(catalogue, '«»,')).toEqual([]);
  });

  it('does not change its input', () => {
    const before = names(catalogue);
    searchByName(catalogue, 'черн');
    expect(names(catalogue)).toEqual(before);
  });
});

describe('searchByName over a generated catalogue of 10,000 products', () => {
  const BERRIES = [
    'Малина',
    'Клубника',
    'Черника',
    'Ёжевика',
    'Смородина',
    'Крыжовник',
    'Голубика',
    'Брусника',
    'Клюква',
    'Морошка',
  ];
  const KINDS = ['свежая', 'замороженная', 'сушёная', 'протёртая', 'отборная'];
  const PACKS = ['лоток', 'коробка', 'пакет', 'ведро'];
  // Index i -> a name from three independent digits; every 7th is «Набор …» so the berry is not first.
  const catalogue = Array.from({ length: 10_000 }, (_, id) => {
    const berry = BERRIES[id % 10] ?? '';
    const kind = KINDS[Math.floor(id / 10) % 5] ?? '';
    const pack = PACKS[Math.floor(id / 50) % 4] ?? '';
    const name =
      id % 7 === 0
        ? `Набор: ${berry.toLowerCase()} ${kind}, ${pack} №${id}`
        : `${berry} ${kind}, ${pack} №${id}`;
    return { id, name, berry, kind, pack, gift: id % 7 === 0 };
  });

  it('finds exactly the products of one berry, prefix matches first, alphabetical inside', () => {
    const found = searchByName(catalogue, ' ЕЖЕВИКА ');
    const expected = catalogue.filter((p) => p.berry === 'Ёжевика');
    expect(found).toHaveLength(expected.length);
    expect(new Set(found.map((p) => p.id))).toEqual(new Set(expected.map((p) => p.id)));
    const firstGift = found.findIndex((p) => p.gift);
    expect(firstGift).toBe(expected.filter((p) => !p.gift).length);
    expect(found.slice(firstGift).every((p) => p.gift)).toBe(true);
    const collator = new Intl.Collator('ru');
    for (const group of [found.slice(0, firstGift), found.slice(firstGift)]) {
      for (let i = 1; i < group.length; i++) {
        expect(
          collator.compare(group[i - 1]?.name ?? '', group[i]?.name ?? ''),
        ).toBeLessThanOrEqual(0);
      }
    }
  });

  it('combines words: berry + kind + pack counts match the generator', () => {
    const found = searchByName(catalogue, 'клюк сушен ведр');
    const expected = catalogue.filter(
      (p) => p.berry === 'Клюква' && p.kind === 'сушёная' && p.pack === 'ведро',
    );
    expect(found.map((p) => p.id).sort((a, b) => a - b)).toEqual(expected.map((p) => p.id));
    expect(expected.length).toBeGreaterThan(0);
  });

  it('a number finds the one product whose number starts with it', () => {
    expect(searchByName(catalogue, '№9999').map((p) => p.id)).toEqual([9999]);
    expect(
      searchByName(catalogue, '999')
        .map((p) => p.id)
        .sort((a, b) => a - b),
    ).toEqual([999, 9990, 9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999]);
  });

  // Timing lives in `npm run bench` (bench/run.ts), not in tests: a busy machine must not fail them.
  it('a word in no name finds nothing', () => {
    expect(searchByName(catalogue, 'ананас')).toEqual([]);
  });
});
