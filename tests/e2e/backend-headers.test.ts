// The backend's headers are filtered (issue 39): a backend whose every answer carries what no
// shopper should get (X-Accel-* that nginx would obey, Refresh, CORS, Clear-Site-Data, cookies
// for other domains), in front of two instances and the recipe; each header is looked for
// straight at an instance and through nginx. Then nginx's own directives, with an instance that
// would pass X-Accel-* on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultBackend, headersBackend, httpBackend, stubBackend } from './fault-backends.ts';
import { type RecipeInFront, startRecipe, startRecipeInFront } from './nginx-recipe.ts';

/** What the backend adds to every answer; none of it may reach a browser. */
const HOSTILE = {
  'x-accel-redirect': '/order_status',
  'x-accel-limit-rate': '1',
  'x-accel-expires': '86400',
  'x-accel-buffering': 'no',
  refresh: '0; url=https://evil.example/',
  'access-control-allow-origin': 'https://evil.example',
  'access-control-allow-credentials': 'true',
  'clear-site-data': '"cookies", "storage"',
  link: '<https://evil.example/x.js>; rel=preload; as=script',
  'set-cookie': [
    'evil=1; Domain=evil.example; Path=/',
    'wide=1; Domain=.0.0.1; Path=/',
    'own=1; Domain=127.0.0.1; Path=/',
    'plain=1; Path=/',
  ],
};

let stub: FaultBackend;
let backend: FaultBackend;
let recipe: RecipeInFront;

beforeAll(async () => {
  stub = await stubBackend();
  backend = await headersBackend(stub.url, HOSTILE);
  recipe = await startRecipeInFront(backend.url);
});

afterAll(async () => {
  await recipe?.close();
  await backend?.close();
  await stub?.close();
});

/** The answer's headers that are the backend's hostile ones, by name. */
function hostileIn(answer: Response): string[] {
  return Object.keys(HOSTILE).filter(
    (name) => name !== 'set-cookie' && answer.headers.get(name) !== null,
  );
}

const cookieNames = (answer: Response) =>
  answer.headers.getSetCookie().map((line) => line.split('=', 1)[0]);

describe('what the backend says in its headers', () => {
  it.each([
    ['straight at an instance', () => recipe.shops[0].url],
    ['through the recipe', () => recipe.url],
  ])('%s: /api and /media pass their own headers only', async (_, front) => {
    const api = await fetch(`${front()}/api/catalog/product_retrieve/7`);
    expect(api.status).toBe(200);
    // The product itself, not the page X-Accel-Redirect names.
    expect(await api.json()).toMatchObject({ id: 7 });
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(hostileIn(api)).toEqual([]);
    // The backend's cookies for the shop's own host go on; for any other domain they do not.
    expect(cookieNames(api)).toEqual(expect.arrayContaining(['own', 'plain']));
    expect(cookieNames(api)).not.toEqual(expect.arrayContaining(['evil']));
    expect(cookieNames(api)).not.toEqual(expect.arrayContaining(['wide']));

    const media = await fetch(`${front()}/media/catalog/product-1.svg`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/svg+xml');
    await media.arrayBuffer();
    expect(hostileIn(media)).toEqual([]);
    expect(cookieNames(media)).toEqual([]);
  });

  it.each([
    ['straight at an instance', () => recipe.shops[0].url],
    ['through the recipe', () => recipe.url],
  ])('%s: a page rendered from the backend carries none of them', async (_, front) => {
    // A newcomer's basket page: the server's calls bring the backend's cookies to the visitor.
    const page = await fetch(`${front()}/order`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Корзина');
    expect(hostileIn(page)).toEqual([]);
    expect(cookieNames(page)).toEqual(expect.arrayContaining(['own', 'plain']));
    expect(cookieNames(page)).not.toContain('evil');
    expect(cookieNames(page)).not.toContain('wide');
  });
});

describe("nginx's own directives", () => {
  it('an X-Accel-* of an instance’s answer steers nothing and reaches no browser', async () => {
    // Instances that would pass the backend's X-Accel-* on, as a careless proxy would.
    const careless = await httpBackend((req, res) => {
      req.resume();
      if (req.url === '/order_status') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('the orders page');
        return;
      }
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'cache-control': 'private, no-store',
          'x-accel-redirect': '/order_status',
          'x-accel-expires': '86400',
          'x-accel-buffering': 'no',
          'x-accel-charset': 'koi8-r',
        })
        .end(JSON.stringify({ url: req.url }));
    });
    const front = await startRecipe([careless, careless]);
    try {
      for (const path of ['/api/catalog/product_retrieve/7', '/catalog?x-accel']) {
        for (let i = 0; i < 2; i += 1) {
          const answer = await fetch(`${front.url}${path}`);
          expect(await answer.json()).toEqual({ url: path });
          for (const name of ['x-accel-redirect', 'x-accel-expires', 'x-accel-buffering']) {
            expect(answer.headers.get(name)).toBeNull();
          }
          // A private answer is never kept, whatever X-Accel-Expires says.
          expect(answer.headers.get('x-cache-status') ?? 'none').not.toMatch(/HIT/);
        }
      }
    } finally {
      await front.close();
      await careless.close();
    }
  });
});
