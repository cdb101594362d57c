// A page's status is decided before anything renders (issue 42): a catalogue id that is not one
// sends the shopper to its -404 page without a call, a product the backend does not have sends
// them there after its call, and neither renders the page, nor any tree at all, to find it out.
// The server's render (renderPage) runs against a fake backend; React's renderer and the product
// page are watched. Two server sides (createShopServer) share nothing of what they keep.
import { Writable } from 'node:stream';
import type * as ReactDomServer from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ProductPageModule from '../../src/features/catalog/ProductPage';
import type { PublicAnswersOptions, ShopServer } from '../../src/server-entry/entry-server';
import { answer, json, raspberry, type Reply } from './fake-replies';

const watched = vi.hoisted(() => ({ trees: 0, productPages: 0 }));

vi.mock('react-dom/server', async (importOriginal) => {
  const server = await importOriginal<typeof ReactDomServer>();
  return {
    ...server,
    renderToPipeableStream: (...args: Parameters<typeof server.renderToPipeableStream>) => {
      watched.trees += 1;
      return server.renderToPipeableStream(...args);
    },
  };
});

vi.mock('../../src/features/catalog/ProductPage', async (importOriginal) => {
  const page = await importOriginal<typeof ProductPageModule>();
  const ProductPage: typeof page.default = (props) => {
    watched.productPages += 1;
    return page.default(props);
  };
  return { ...page, default: ProductPage };
});

const { createShopServer, NO_CHANGE } = await import('../../src/server-entry/entry-server');

const replies = new Map<string, Reply>();
const asked: string[] = [];

/** A server side on the fake backend, its answers kept as `publicAnswers` says. */
function fakeBackendServer(publicAnswers: PublicAnswersOptions): ShopServer {
  return createShopServer({
    baseURL: () => 'http://backend.test/api',
    fetch: (input, init) => {
      const path = new URL(new Request(input, init).url).pathname;
      asked.push(path);
      return answer(
        replies.get(path) ?? json(404, { detail: 'Страница не найдена.' }),
        init,
        () => {},
      );
    },
    publicAnswers,
    timeZone: 'Europe/Moscow',
  });
}

let shop: ShopServer;

beforeAll(() => {
  shop = fakeBackendServer({ freshMs: 0, staleMs: 0, maxEntries: 10 });
});

beforeEach(() => {
  watched.trees = 0;
  watched.productPages = 0;
  asked.length = 0;
  replies.clear();
});

afterAll(() => vi.restoreAllMocks());

/** The server's answer for `url`, to a visitor with nothing of their own (a page for everyone). */
async function render(url: string, server = shop) {
  const visitor = { cookies: {}, forwardedFor: '203.0.113.7', proto: 'https', host: 'shop.test' };
  const result = await server.renderPage({
    url,
    origin: 'https://shop.test',
    cookieAccepted: false,
    calls: server.startCalls(visitor, 5_000),
    shared: true,
  });
  if (result.kind === 'redirect') return { ...result, html: '' };
  let html = '';
  await new Promise<void>((resolve) => {
    result.pipe(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          html += chunk.toString();
          done();
        },
        final(done) {
          resolve();
          done();
        },
      }),
    );
  });
  return { ...result, html };
}

describe('a page’s status, decided before it renders', () => {
  it('a product the backend has renders its page, 200', async () => {
    replies.set('/api/catalog/product_retrieve/7', json(200, raspberry));
    replies.set('/api/catalog/product_breadcrumbs/7', json(200, []));
    const page = await render('/product/7');
    expect(page).toMatchObject({ kind: 'page', status: 200 });
    expect(page.html).toContain('Малина');
    // The watches see a render: their zeros below are not a watch that sees nothing.
    expect(watched.productPages).toBeGreaterThan(0);
    expect(watched.trees).toBe(1);
  });

  it('a missing product: its -404 page, the product page never rendered, nor any tree', async () => {
    const page = await render('/product/999');
    expect(page).toMatchObject({ kind: 'redirect', location: '/product-404/999' });
    expect(asked).toContain('/api/catalog/product_retrieve/999');
    expect(watched.productPages).toBe(0);
    expect(watched.trees).toBe(0);
  });

  it('the -404 page itself answers 404 with `Страница не найдена`, the product page not rendered', async () => {
    const page = await render('/product-404/999');
    expect(page).toMatchObject({ kind: 'page', status: 404 });
    expect(page.html).toContain('Страница не найдена');
    expect(watched.productPages).toBe(0);
  });

  it('an id that is not one: the redirect is decided from the address, with no call and no render', async () => {
    const page = await render('/product/abc');
    expect(page).toMatchObject({ kind: 'redirect', location: '/product-404/abc' });
    expect(asked).toEqual([]);
    expect(watched.productPages).toBe(0);
    expect(watched.trees).toBe(0);
  });
});

describe('each server side keeps its own answers (createShopServer)', () => {
  it('a change outdates the answers of the server told, and nothing of another’s', async () => {
    const keeping = { freshMs: 3_600_000, staleMs: 3_600_000, maxEntries: 10 };
    const [one, other] = [fakeBackendServer(keeping), fakeBackendServer(keeping)];
    replies.set('/api/catalog/product_retrieve/7', json(200, raspberry));
    replies.set('/api/catalog/product_breadcrumbs/7', json(200, []));
    await render('/product/7', one);
    const change = { ...NO_CHANGE, products: [7] };
    expect(other.outdateAnswers(change)).toBe(0);
    expect(one.outdateAnswers(change)).toBeGreaterThan(0);
    // The other asks the backend itself: no answer of the first's stands in for its own.
    asked.length = 0;
    await render('/product/7', other);
    expect(asked).toContain('/api/catalog/product_retrieve/7');
  });
});
