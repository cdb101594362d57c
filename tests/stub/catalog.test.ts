import { beforeAll, describe, expect, it } from 'vitest';
import type { Product, SectionRef } from '../../src/api/types';
import {
  expectCrumbs,
  expectKeys,
  expectProduct,
  expectSectionRef,
  stubPerFile,
  Visitor,
} from './helpers.ts';

const server = stubPerFile();
let visitor: Visitor;

beforeAll(() => {
  visitor = new Visitor(server.url);
});

describe('catalogue calls', () => {
  it('GET catalog/product answers the home products', async () => {
    const { status, body } = await visitor.get('/api/catalog/product');
    expect(status).toBe(200);
    const products = body as Product[];
    expect(products.length).toBeGreaterThanOrEqual(6);
    products.forEach(expectProduct);
    expect(products.map((p) => p.name)).toContain('Малина');
  });

  it('GET catalog/product_retrieve/{id} answers one product', async () => {
    const { status, body } = await visitor.get('/api/catalog/product_retrieve/7');
    expect(status).toBe(200);
    expectProduct(body);
    expect(body).toEqual({
      id: 7,
      name: 'Малина',
      image: '/media/catalog/product-7.jpg',
      unit: 'кг',
      unit_step: 0.1,
      price: 890,
      rest: 15,
      available: true,
    });
  });

  it('has the special products: pieces, sold out, no price, no image', async () => {
    const pieces = (await visitor.get('/api/catalog/product_retrieve/4')).body as Product;
    expect(pieces.unit).toBe('шт');
    const soldOut = (await visitor.get('/api/catalog/product_retrieve/5')).body;
    expect(soldOut).toMatchObject({ available: false, rest: 0 });
    expect((await visitor.get('/api/catalog/product_retrieve/50')).body).toMatchObject({
      price: null,
    });
    expect((await visitor.get('/api/catalog/product_retrieve/45')).body).toMatchObject({
      image: null,
    });
    expect((await visitor.get('/api/catalog/product_retrieve/47')).body).toMatchObject({
      unit: 'л',
      unit_step: 0.5,
    });
  });

  it('GET catalog/product_search?q= answers products, prefix matches first', async () => {
    const { status, body } = await visitor.get(
      `/api/catalog/product_search?q=${encodeURIComponent('  МАЛИН ')}`,
    );
    expect(status).toBe(200);
    const products = body as Product[];
    products.forEach(expectProduct);
    const names = products.map((p) => p.name);
    expect(names.slice(0, 4)).toEqual([
      'Малина',
      'Малина жёлтая',
      'Малина замороженная',
      'Малина ремонтантная «Полка», лоток 250 г',
    ]);
    expect(names).toContain('Джем малиновый, 350 г');
    expect(names).toContain('Саженец малины «Полка»');
    expect(names.indexOf('Джем малиновый, 350 г')).toBeGreaterThan(3);
  });

  it('search treats ё as е and answers [] for an empty query', async () => {
    const withYo = (
      await visitor.get(`/api/catalog/product_search?q=${encodeURIComponent('чёрная')}`)
    ).body;
    const withE = (
      await visitor.get(`/api/catalog/product_search?q=${encodeURIComponent('черная')}`)
    ).body;
    expect(withYo).toEqual(withE);
    expect((withYo as Product[]).map((p) => p.name)).toContain('Смородина чёрная');
    expect((await visitor.get('/api/catalog/product_search?q=%20%20')).body).toEqual([]);
    expect((await visitor.get('/api/catalog/product_search')).body).toEqual([]);
    expect((await visitor.get('/api/catalog/product_search?q=zzz')).body).toEqual([]);
  });

  it('GET catalog/product_breadcrumbs/{id} answers the path down to the product section', async () => {
    const { status, body } = await visitor.get('/api/catalog/product_breadcrumbs/2');
    expect(status).toBe(200);
    expect(expectCrumbs(body)).toEqual([
      { id: 1, name: 'Ягоды' },
      { id: 8, name: 'Садовые ягоды' },
      { id: 14, name: 'Клубника' },
      { id: 20, name: 'Клубника ремонтантная' },
    ]);
    expect((await visitor.get('/api/catalog/product_breadcrumbs/47')).body).toEqual([
      { id: 5, name: 'Морсы и сиропы' },
    ]);
  });

  it('GET catalog/section answers the home sections', async () => {
    const { status, body } = await visitor.get('/api/catalog/section');
    expect(status).toBe(200);
    const sections = body as SectionRef[];
    expect(sections.length).toBeGreaterThanOrEqual(4);
    sections.forEach(expectSectionRef);
    expect(sections[0]).toEqual({
      id: 8,
      name: 'Садовые ягоды',
      image: '/media/catalog/section-8.svg',
    });
  });

  it('GET catalog/section_root answers at least 6 root sections', async () => {
    const { status, body } = await visitor.get('/api/catalog/section_root');
    expect(status).toBe(200);
    const sections = body as SectionRef[];
    sections.forEach(expectSectionRef);
    expect(sections.length).toBeGreaterThanOrEqual(6);
    expect(sections.map((s) => s.name)).toEqual([
      'Ягоды',
      'Замороженные ягоды',
      'Сушёные ягоды и орехи',
      'Варенье и джемы',
      'Морсы и сиропы',
      'Подарочные наборы',
      'Саженцы',
    ]);
  });

  it('GET catalog/section_retrieve/{id} answers the section, its children and its products', async () => {
    const { status, body } = await visitor.get('/api/catalog/section_retrieve/14');
    expect(status).toBe(200);
    const section = expectKeys(body, ['id', 'name', 'image', 'children', 'products']);
    expect(section.id).toBe(14);
    expect(section.name).toBe('Клубника');
    (section.children as unknown[]).forEach(expectSectionRef);
    (section.products as unknown[]).forEach(expectProduct);
    expect((section.children as SectionRef[]).map((c) => c.id)).toEqual([20, 21]);
    expect((section.products as Product[]).map((p) => p.id)).toEqual([6]);

    const leaf = (await visitor.get('/api/catalog/section_retrieve/20')).body as {
      children: unknown[];
      products: Product[];
    };
    expect(leaf.children).toEqual([]);
    expect(leaf.products.map((p) => p.id)).toEqual([2, 3]);

    const empty = (await visitor.get('/api/catalog/section_retrieve/22')).body;
    expect(empty).toMatchObject({ children: [], products: [] });
  });

  it('GET catalog/section_search?q= answers section refs', async () => {
    const { status, body } = await visitor.get(
      `/api/catalog/section_search?q=${encodeURIComponent('клубн')}`,
    );
    expect(status).toBe(200);
    (body as unknown[]).forEach(expectSectionRef);
    expect((body as SectionRef[]).map((s) => s.name)).toEqual([
      'Клубника',
      'Клубника крупноплодная',
      'Клубника ремонтантная',
      'Рассада клубники',
    ]);
  });

  it('GET catalog/section_breadcrumbs/{id} answers root-down including the section', async () => {
    const { status, body } = await visitor.get('/api/catalog/section_breadcrumbs/21');
    expect(status).toBe(200);
    expect(expectCrumbs(body).map((c) => c.id)).toEqual([1, 8, 14, 21]);
    expect((await visitor.get('/api/catalog/section_breadcrumbs/1')).body).toEqual([
      { id: 1, name: 'Ягоды' },
    ]);
  });

  it('GET catalog/selections answers 3 selections with full products', async () => {
    const { status, body } = await visitor.get('/api/catalog/selections');
    expect(status).toBe(200);
    const selections = body as Record<string, unknown>[];
    expect(selections.map((s) => s.name)).toEqual(['Сезонные хиты', 'Для варенья', 'Подарки']);
    for (const selection of selections) {
      expectKeys(selection, ['id', 'name', 'description', 'sections', 'products']);
      expect(selection.description).toBeTypeOf('string');
      (selection.sections as unknown[]).forEach(expectSectionRef);
      (selection.products as unknown[]).forEach(expectProduct);
      expect((selection.products as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it('GET catalog/selection_retrieve/{id} answers one selection', async () => {
    const { status, body } = await visitor.get('/api/catalog/selection_retrieve/3');
    expect(status).toBe(200);
    const selection = expectKeys(body, ['id', 'name', 'description', 'sections', 'products']);
    expect(selection.name).toBe('Подарки');
    expect((selection.sections as SectionRef[]).map((s) => s.id)).toEqual([6, 4]);
    expect((selection.products as Product[]).map((p) => p.id)).toEqual([51, 52, 53, 42, 39]);
  });
});

describe('catalogue fixtures', () => {
  it('has at least 45 products mixing pieces and weight units, unique ids', async () => {
    const ids = new Set<number>();
    const units = new Map<string, Set<number | null>>();
    const unbuyable: string[] = [];
    for (let id = 1; id <= 80; id++) {
      const { status, body } = await visitor.get(`/api/catalog/product_retrieve/${id}`);
      if (status === 404) continue;
      const product = body as Product;
      ids.add(product.id);
      // One step must fit under the cap min(rest, 10), or the shopper could never add it.
      const step = product.unit === 'шт' ? 1 : (product.unit_step ?? 0.1);
      if (product.available && step > Math.min(product.rest, 10)) unbuyable.push(product.name);
      if (!units.has(product.unit)) units.set(product.unit, new Set());
      units.get(product.unit)?.add(product.unit_step);
    }
    expect(ids.size).toBeGreaterThanOrEqual(45);
    expect([...(units.get('кг') ?? [])]).toEqual(expect.arrayContaining([0.1, 0.5]));
    expect(unbuyable).toEqual([]);
    expect([...(units.get('л') ?? [])]).toContain(0.5);
    expect(units.has('шт')).toBe(true);
  });

  it('has the berries a shopper looks for', async () => {
    for (const name of [
      'Малина',
      'Черника',
      'Голубика',
      'Ежевика',
      'Смородина чёрная',
      'Крыжовник',
      'Брусника',
      'Клюква',
      'Морошка',
    ]) {
      const found = (await visitor.get(`/api/catalog/product_search?q=${encodeURIComponent(name)}`))
        .body as Product[];
      expect(found[0]?.name, name).toBe(name);
    }
  });
});

describe('catalogue errors', () => {
  it.each([
    '/api/catalog/product_retrieve/9999',
    '/api/catalog/product_breadcrumbs/9999',
    '/api/catalog/section_retrieve/9999',
    '/api/catalog/section_breadcrumbs/9999',
    '/api/catalog/selection_retrieve/9999',
    '/api/catalog/product_retrieve/abc',
    '/api/catalog/section_retrieve/1.5',
    '/api/catalog/selection_retrieve/-1',
    '/api/catalog/product_retrieve/99999999999999999999999',
    '/api/catalog/no_such_call',
  ])('GET %s answers 404 {detail}', async (path) => {
    const { status, body } = await visitor.get(path);
    expect(status).toBe(404);
    expect(body).toEqual({ detail: 'Не найдено.' });
  });

  it('a wrong method answers 405 with Allow', async () => {
    const first = new Visitor(server.url);
    await first.start();
    const { status, body, headers } = await first.post('/api/catalog/product', {});
    expect(status).toBe(405);
    expect(body).toEqual({ detail: 'Метод "POST" не разрешён.' });
    expect(headers.get('allow')).toContain('GET');
  });
});
