// A change the backend tells of reaches every shopper while nginx serves the pages from its cache
// (deploy/nginx.conf, host/backend/change-hook.ts, host/pages/page-renewal.ts): the recipe in front
// of the stub, pages kept for an hour and the instances' answers fresh for an hour, so that only
// the hook can bring a change. Every variant of every page that shows it is renewed in nginx, and
// each instance's memory; a hook that is not the backend's renews nothing; a hook heard while the
// backend is down empties nothing, and the change shows once the backend is back.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHANGE_HOOK_PATH } from '../../host/backend/change-hook.ts';
import {
  fetchVariant,
  HOOK_SECRET,
  hookBody,
  isVariant,
  postHook,
  priceShown,
  VARIANTS,
  variantName,
} from './change-hooks.ts';
import { type StubRecipe, startStubRecipe } from './nginx-recipe.ts';

/** Малина: in section 15, selection 1, on the home page, found by «малина». */
const RASPBERRY = 7;
const RASPBERRY_PAGES = ['/', '/section/15', '/selection/1', '/product/7', '/search?q=малина'];

let recipe: StubRecipe;

beforeAll(async () => {
  recipe = await startStubRecipe({
    CHANGE_HOOK_SECRET: HOOK_SECRET,
    PAGE_CACHE_SECONDS: '3600',
    CATALOG_CACHE_FRESH_MS: '3600000',
  });
});
afterAll(() => recipe?.close());

/** Sets a product's price (or stock) in the stub, as a backend's admin would. */
async function setProduct(id: number, fields: { price?: number; rest?: number }) {
  const answer = await fetch(`${recipe.backend.url}__control/state`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ product: { id, ...fields } }),
  });
  expect(answer.status).toBe(200);
}

const address = (page: string) => encodeURI(page);

/** Every variant of each page through nginx, until each is kept (HIT). */
async function keepAll(pages: string[]) {
  for (const page of pages) {
    for (const variant of VARIANTS) {
      await expect
        .poll(async () => (await fetchVariant(recipe.url, address(page), variant)).cache)
        .toBe('HIT');
    }
  }
}

/** For each page and variant: whether nginx's copy (a HIT, of that variant) shows `price`. */
async function showing(pages: string[], price: number): Promise<string[]> {
  const wrong: string[] = [];
  for (const page of pages) {
    for (const variant of VARIANTS) {
      const seen = await fetchVariant(recipe.url, address(page), variant);
      const fine =
        seen.status === 200 &&
        seen.cache === 'HIT' &&
        isVariant(seen, variant) &&
        priceShown(price).test(seen.html);
      if (!fine) wrong.push(`${page} (${variantName(variant)}): ${seen.status} ${seen.cache}`);
    }
  }
  return wrong;
}

describe('a change the backend tells of', () => {
  test('renews every kept variant of every page that shows it, and both instances’ memory', async () => {
    await keepAll(RASPBERRY_PAGES);
    expect(await showing(RASPBERRY_PAGES, 890)).toEqual([]);
    await setProduct(RASPBERRY, { price: 1234 });
    // Kept for an hour: without the hook nothing would change.
    expect(await showing(RASPBERRY_PAGES, 890)).toEqual([]);

    expect(await postHook(recipe.url, hookBody({ products: [RASPBERRY] }))).toEqual({
      status: 202,
      detail: 'Принято',
    });
    await expect.poll(() => showing(RASPBERRY_PAGES, 1234), { timeout: 60_000 }).toEqual([]);
    // Each instance's own memory too (its answers are fresh for an hour): a page it renders now
    // for a visitor of its own shows the new price.
    for (const shop of recipe.shops) {
      const direct = await fetch(`${shop.url}/product/${RASPBERRY}`);
      expect(await direct.text()).toMatch(priceShown(1234));
    }
  });

  test('a product the backend no longer has: its kept page becomes the redirect to its -404 page', async () => {
    const page = '/product/58';
    await keepAll([page]);
    // The backend no longer has it (the stub answers its retrieve with a 404 from now on).
    const gone = await fetch(`${recipe.backend.url}__control/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        path: '/api/catalog/product_retrieve/58',
        status: 404,
        body: { detail: 'Не найдено.' },
      }),
    });
    expect(gone.status).toBeLessThan(300);
    expect((await postHook(recipe.url, hookBody({ products: [58], sections: [18] }))).status).toBe(
      202,
    );
    for (const variant of VARIANTS) {
      await expect
        .poll(async () => {
          const seen = await fetchVariant(recipe.url, page, variant);
          return `${seen.status} ${seen.cache}`;
        })
        .toBe('302 HIT');
    }
  });
});

describe('a hook that is not the backend’s, or not new', () => {
  const PAGE = '/product/8';

  test('a wrong signature, an old timestamp and a replay get 401, and every kept page stays', async () => {
    await keepAll([PAGE]);
    // A hook the shop took earlier, sent again below as it was. Its renewal is over once every
    // variant shows its change.
    await setProduct(8, { price: 995 });
    const earlier = hookBody({ products: [8] });
    expect((await postHook(recipe.url, earlier)).status).toBe(202);
    await expect.poll(() => showing([PAGE], 995), { timeout: 60_000 }).toEqual([]);
    await setProduct(8, { price: 1777 });

    const refused = [
      await postHook(recipe.url, hookBody({ products: [8] }), 'not-the-secret-of-this-shop-at-all'),
      await postHook(recipe.url, hookBody({ products: [8] }, Math.floor(Date.now() / 1000) - 600)),
      await postHook(recipe.url, earlier),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([401, 401, 401]);
    // The hooks are taken or refused in the order they come, and renewed in that order: once a
    // later change (another product's) shows, a refused hook that had been taken would show too.
    await setProduct(RASPBERRY, { price: 1300 });
    expect((await postHook(recipe.url, hookBody({ products: [RASPBERRY] }))).status).toBe(202);
    await expect
      .poll(() => showing([`/product/${RASPBERRY}`], 1300), { timeout: 60_000 })
      .toEqual([]);
    expect(await showing([PAGE], 995)).toEqual([]);
  });

  test('an unsigned hook through nginx: 401 with the shop’s message', async () => {
    const answer = await fetch(`${recipe.url}${CHANGE_HOOK_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: hookBody({ everything: true }),
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { detail: string }).detail).toContain('Подпись');
  });
});

describe('a hook heard while the backend is down', () => {
  test('empties nothing: kept pages stay whole, the instances render from what they had; the change shows once the backend is back', async () => {
    const pages = ['/product/16', '/selection/1'];
    await keepAll(pages);
    const before = await fetchVariant(recipe.url, '/product/16', VARIANTS[0]!);
    const price = /(\d[\d\s]*)\s₽/.exec(before.html)?.[1]?.replace(/\s/g, '');
    expect(price).toBeDefined();
    await setProduct(16, { price: 4321 });
    await recipe.backend.close();

    expect((await postHook(recipe.url, hookBody({ products: [16] }))).status).toBe(202);
    // The renewals cannot get the new price; every kept variant keeps showing the old one.
    expect(await showing(pages, Number(price))).toEqual([]);
    // A page no one asked for before is rendered from the instances' kept answers: whole.
    for (const shop of recipe.shops) {
      const direct = await fetch(`${shop.url}/product/16?outage=1`);
      const html = await direct.text();
      expect(html).toMatch(priceShown(Number(price)));
      expect(html).not.toContain('Не удалось загрузить данные');
    }

    await recipe.restartBackend();
    await expect.poll(() => showing(pages, 4321), { timeout: 120_000 }).toEqual([]);
  });
});
