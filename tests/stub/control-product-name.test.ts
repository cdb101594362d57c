// POST /__control/state `product: {id, name}`: the shop's XSS e2e tests give a product a hostile
// name; the stub must store and serve it byte for byte (escaping is the app's job) and refuse
// names that are not names.
import { describe, expect, it } from 'vitest';
import { control, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile({ reset: true });

const state = (body: unknown) => control(server.url, 'POST', '/state', body);
const PAYLOAD = '<img src=x onerror="window.__xss=1"> Малина';

describe('/__control/state, product.name', () => {
  it('renames a product everywhere it is served, as is', async () => {
    const set = await state({ product: { id: 7, name: PAYLOAD } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ applied: ['product', 'product.name'] });
    const visitor = await new Visitor(server.url).start();
    expect((await visitor.get('/api/catalog/product_retrieve/7')).body).toMatchObject({
      id: 7,
      name: PAYLOAD,
    });
    const found = (await visitor.get('/api/catalog/product_search?q=onerror')).body as {
      id: number;
    }[];
    expect(found.map((product) => product.id)).toEqual([7]);
  });

  it('keeps the name when the same body also resets, and sets stock beside it', async () => {
    await state({ reset: true, product: { id: 7, name: 'Малина «Тест»', rest: 3 } });
    const visitor = await new Visitor(server.url).start();
    expect((await visitor.get('/api/catalog/product_retrieve/7')).body).toMatchObject({
      name: 'Малина «Тест»',
      rest: 3,
    });
  });

  it('refuses an empty, a non-text or an overlong name, and an unknown product, changing nothing', async () => {
    for (const product of [
      { id: 7, name: '' },
      { id: 7, name: '   ' },
      { id: 7, name: 42 },
      { id: 7, name: 'я'.repeat(201) },
      { id: 'семь', name: 'Малина' },
      { id: 99_999, name: 'Малина' },
    ]) {
      const answer = await state({ product });
      expect(answer.status, JSON.stringify(product)).toBe(400);
    }
    const visitor = await new Visitor(server.url).start();
    expect((await visitor.get('/api/catalog/product_retrieve/7')).body).toMatchObject({
      name: 'Малина',
    });
  });
});
