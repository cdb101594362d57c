// deploy/nginx.conf as written through a backend outage. The instances here keep a public page
// for a second (PAGE_CACHE_SECONDS) so that nginx's copy expires within the test, and keep no
// answers of their own to stand in (CATALOG_CACHE_STALE_MS=0), as instances started during the
// outage would: a page they render then lacks its data, and says no cache may keep it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type StubRecipe, startStubRecipe } from './nginx-recipe.ts';

const PAGE = '/section/14';

let recipe: StubRecipe;
let front = '';

beforeAll(async () => {
  recipe = await startStubRecipe({ PAGE_CACHE_SECONDS: '1', CATALOG_CACHE_STALE_MS: '0' });
  front = recipe.url;
});

afterAll(() => recipe?.close());

/** One request through nginx: its status, nginx's cache status and the body. */
async function throughNginx(address: string) {
  const response = await fetch(`${front}${address}`);
  return {
    status: response.status,
    cache: response.headers.get('x-cache-status'),
    html: await response.text(),
  };
}

test('with the backend down, an expired page stays whole: nginx keeps its copy while instances cannot render it', async () => {
  const first = await throughNginx(PAGE);
  expect(first).toMatchObject({ status: 200, cache: 'MISS' });
  const products = (first.html.match(/data-testid="product-card"/g) ?? []).length;
  expect(products).toBeGreaterThan(0);

  await recipe.backend.close();
  // An instance's own answer now: the page without its catalogue, for no cache to keep.
  const direct = await fetch(`${recipe.shops[0].url}${PAGE}`);
  expect(direct.status).toBe(200);
  expect(direct.headers.get('cache-control')).toBe('private, no-store');
  expect(await direct.text()).not.toContain('data-testid="product-card"');

  // Until the copy expires nginx answers from it (HIT). Then a request gets it STALE and nginx
  // asks an instance in the background (UPDATING while it does). A STALE after that one means
  // the instance's incomplete page left the copy as it was; a keepable one would have replaced
  // it (HIT).
  const seen: string[] = [];
  let stale = 0;
  while (stale < 2) {
    const answer = await throughNginx(PAGE);
    seen.push(String(answer.cache));
    expect(answer.status, seen.join(' ')).toBe(200);
    expect(answer.html, seen.join(' ')).toBe(first.html);
    if (answer.cache === 'STALE') stale += 1;
    else if (stale > 0) expect(answer.cache, seen.join(' ')).toBe('UPDATING');
    else expect(answer.cache, seen.join(' ')).toBe('HIT');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

test('a page nobody asked for before the outage is the shop’s own page, which says so, and is not kept', async () => {
  const answer = await throughNginx('/section/9');
  expect(answer.status).toBe(200);
  expect(answer.cache).toBe('MISS');
  // The shop's header and its message in the section's place, with a way to try again; not
  // nginx's own error page.
  expect(answer.html).toContain('Ягодная лавка');
  expect(answer.html).toContain('Не удалось загрузить данные');
  expect(answer.html).toContain('Повторить');
  expect(answer.html).not.toContain('<center>nginx');
  // Not kept: the next visitor's request goes to an instance again.
  expect((await throughNginx('/section/9')).cache).toBe('MISS');
});
