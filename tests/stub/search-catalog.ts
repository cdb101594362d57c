// A generated catalogue of realistic product names for the search test and the benchmark: the
// seed's berries, varieties, states and packs combined, with `ё`, quotes, commas and numbers.
// Deterministic, so a failure or a figure can be reproduced.

export interface NamedProduct {
  id: number;
  name: string;
}

// [name, genitive]: «Малина», «Варенье из малины».
const BERRIES: [string, string][] = [
  ['Малина', 'малины'],
  ['Клубника', 'клубники'],
  ['Земляника', 'земляники'],
  ['Смородина', 'смородины'],
  ['Голубика', 'голубики'],
  ['Черника', 'черники'],
  ['Брусника', 'брусники'],
  ['Клюква', 'клюквы'],
  ['Морошка', 'морошки'],
  ['Ежевика', 'ежевики'],
  ['Жимолость', 'жимолости'],
  ['Облепиха', 'облепихи'],
  ['Черешня', 'черешни'],
  ['Вишня', 'вишни'],
  ['Рябина', 'рябины'],
  ['Калина', 'калины'],
];
const KINDS = ['', '', 'садовая', 'лесная', 'ремонтантная', 'жёлтая', 'чёрная', 'красная', 'белая'];
const STATES = ['', '', 'свежая', 'замороженная', 'сушёная', 'протёртая с сахаром', 'отборная'];
const VARIETIES = ['', '', '«Виктория»', '«Полка»', '«Командор»', '«Блюкроп»', '«Ёлочка»'];
const PACKS = ['', '', 'лоток 250 г', 'лоток 500 г', 'стакан 200 г', 'коробка 1 кг', 'пакет 3 кг'];
const MADE_OF = ['Варенье из', 'Джем из', 'Морс из', 'Сироп из', 'Саженец'];

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` products with ids 1..count; the same `seed` gives the same names. */
export function generateProducts(count: number, seed = 2026): NamedProduct[] {
  const next = random(seed);
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)] ?? '';
  const products: NamedProduct[] = [];
  for (let id = 1; id <= count; id += 1) {
    const [berry, genitive] = BERRIES[Math.floor(next() * BERRIES.length)] ?? ['Малина', 'малины'];
    // One product in five is made of berries: «Джем из малины», the berry is not the first word.
    const head =
      next() < 0.2 ? `${pick(MADE_OF)} ${genitive}` : `${berry} ${pick(KINDS)} ${pick(STATES)}`;
    const words = `${head} ${pick(VARIETIES)}`.replace(/\s+/g, ' ').trim();
    const pack = pick(PACKS);
    products.push({ id, name: pack === '' ? words : `${words}, ${pack}` });
  }
  return products;
}
