// /__control/state understands the pact's provider states (contracts/support/states.ts): each
// makes its sentence true, basket and order states act on the session of the request's cookie,
// and a state changes no row it is not about (the pact lets the other rows of a list be).
import { describe, expect, it } from 'vitest';
import { STATES } from '../../contracts/support/states.ts';
import { control, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile({ reset: true });

/** A state request as the contract verifier sends it: Pact's body and the visitor's cookie. */
async function pactState(state: string, params: Record<string, unknown>, visitor?: Visitor) {
  const response = await fetch(new URL('/__control/state', server.url), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(visitor ? { Cookie: visitor.jar.header() } : {}),
    },
    body: JSON.stringify({ state, params, action: 'setup' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface ProductShape {
  id: number;
  image: string | null;
  price: number | null;
  unit_step: number | null;
}
const full = (product: ProductShape) =>
  product.image !== null && product.price !== null && product.unit_step !== null;

describe('pact provider states', () => {
  it('lists every state of the pact among the known states', async () => {
    const { body } = await control(server.url, 'GET', '/state');
    expect((body as { pact_states: string[] }).pact_states.sort()).toEqual(
      Object.values(STATES).sort(),
    );
  });

  it('puts the basket into the session of the cookie the state request carries', async () => {
    const visitor = await new Visitor(server.url).start();
    const other = await new Visitor(server.url).start();
    const answer = await pactState(STATES.basketLine, { id: 7, amount: 1.5 }, visitor);
    expect(answer.status).toBe(200);
    expect(answer.body.owner).toBe(`session:${visitor.jar.get('sessionid')}`);
    const basket = (await visitor.get('/api/catalog/basket')).body as Record<string, unknown>;
    expect(Object.keys(basket)).toEqual(['7']);
    expect((await other.get('/api/catalog/basket')).body).toEqual({});

    await pactState(STATES.emptyBasket, {}, visitor);
    expect((await visitor.get('/api/catalog/basket')).body).toEqual({});
  });

  it('gives the visitor exactly n orders', async () => {
    const visitor = await new Visitor(server.url).start();
    for (const n of [2, 0]) {
      expect((await pactState(STATES.orders, { n }, visitor)).status).toBe(200);
      expect((await visitor.get('/api/catalog/order_history')).body).toHaveLength(n);
    }
  });

  it('lists the product first and full on the home page, and leaves the other products be', async () => {
    const visitor = new Visitor(server.url);
    const home = async () => (await visitor.get('/api/catalog/product')).body as ProductShape[];
    const others = (products: ProductShape[]) => products.filter((product) => product.id !== 7);
    const before = await home();
    expect((await pactState(STATES.homeProduct, { id: 7 })).status).toBe(200);
    const after = await home();
    expect(after[0]?.id).toBe(7);
    expect(full(after[0]!)).toBe(true);
    expect(others(after)).toEqual(others(before));
    // A piece product has no unit step: the pact lets it stand in the list as it is.
    expect(after.find((product) => product.id === 4)?.unit_step).toBeNull();
  });

  it('finds the named product and section by the query of the state, or says it does not', async () => {
    expect((await pactState(STATES.productFound, { q: 'черника', name: 'Черника' })).status).toBe(
      200,
    );
    expect(
      (await pactState(STATES.sectionFound, { q: 'лесные', name: 'Лесные ягоды' })).status,
    ).toBe(200);
    const wrong = await pactState(STATES.productFound, { q: 'малина', name: 'Черника' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toContain(STATES.productFound);
    expect(
      (await pactState(STATES.sectionFound, { q: 'ананас', name: 'Лесные ягоды' })).status,
    ).toBe(400);
  });

  it('answers an empty section with empty lists, and refuses a section that has content', async () => {
    expect((await pactState(STATES.emptySection, { id: 22 })).status).toBe(200);
    const section = (await new Visitor(server.url).get('/api/catalog/section_retrieve/22')).body;
    expect(section).toMatchObject({ id: 22, children: [], products: [] });
    const answer = await pactState(STATES.emptySection, { id: 14 });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain(STATES.emptySection);
  });

  it('creates or empties a selection, and the selection state leaves the others be', async () => {
    const visitor = new Visitor(server.url);
    for (const id of [4, 3]) {
      expect((await pactState(STATES.emptySelection, { id })).status).toBe(200);
      expect((await visitor.get(`/api/catalog/selection_retrieve/${id}`)).body).toMatchObject({
        id,
        sections: [],
        products: [],
      });
    }
    // The pact lets another selection of the list be empty: the state need not touch it.
    expect((await pactState(STATES.selection, { id: 1 })).status).toBe(200);
    const selections = (await visitor.get('/api/catalog/selections')).body as {
      id: number;
      sections: unknown[];
      products: unknown[];
    }[];
    expect(selections.map((selection) => selection.id)).toEqual([1, 2, 3, 4]);
    const empty = selections.filter((each) => !each.sections.length && !each.products.length);
    expect(empty.map((each) => each.id)).toEqual([3, 4]);
  });

  it('sets the null variant of a product', async () => {
    expect((await pactState(STATES.productWithNulls, { id: 45 })).status).toBe(200);
    const product = (await new Visitor(server.url).get('/api/catalog/product_retrieve/45'))
      .body as ProductShape;
    expect([product.image, product.price, product.unit_step]).toEqual([null, null, null]);
  });

  it('makes a product orderable up to the limit of 10', async () => {
    expect((await pactState(STATES.product, { id: 3 })).status).toBe(200);
    const visitor = await new Visitor(server.url).start();
    expect((await visitor.put('/api/catalog/basket/3', { amount: 10 })).status).toBe(200);
    expect((await visitor.put('/api/catalog/basket/3', { amount: 11 })).status).toBe(400);
  });

  it('gives a user a chosen token and revokes another', async () => {
    const token = 'c'.repeat(40);
    expect((await pactState(STATES.userToken, { token, username: 'demo' })).status).toBe(200);
    const visitor = new Visitor(server.url);
    visitor.token = token;
    expect((await visitor.get('/api/auth/user/me/')).body).toMatchObject({ username: 'demo' });
    expect((await pactState(STATES.revokedToken, { token })).status).toBe(200);
    expect((await visitor.get('/api/auth/user/me/')).status).toBe(401);
  });

  it('answers 400 naming the state when the data cannot be made so', async () => {
    const answer = await pactState(STATES.product, { id: 999999 });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain(STATES.product);
    expect((await pactState(STATES.noProductMatches, { q: 'малина' })).status).toBe(400);
  });

  it('does nothing on teardown', async () => {
    const visitor = await new Visitor(server.url).start();
    await pactState(STATES.basketLine, { id: 7, amount: 1.5 }, visitor);
    const response = await fetch(new URL('/__control/state', server.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: visitor.jar.header() },
      body: JSON.stringify({ state: STATES.emptyBasket, params: {}, action: 'teardown' }),
    });
    expect(response.status).toBe(200);
    expect(Object.keys((await visitor.get('/api/catalog/basket')).body as object)).toEqual(['7']);
  });
});
