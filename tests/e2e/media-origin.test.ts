// Only what the shop means to serve goes out under its name (issue 24): a backend whose /media
// holds uploads (a page, a script, an SVG with a script) in front of Chromium, the paths that
// would reach past /media or /api, and the answers Node and express give before any page.
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import { listen, type Listening, rawGet } from '../host/http-helpers.ts';
import { baseUrl, openPage, setupBrowser } from './browser';

const browser = setupBrowser();

/** What a stolen cookie would look like at the backend: the script's own request. */
const stolen: string[] = [];
const asked: string[] = [];
let backend: Listening;
let shop: RunningShop;

// An upload that reads the visitor's cookies (the token's mirror, `jwt`, among them) and sends
// them away, as the attack did.
const SCRIPT = "window.ran = true; fetch('/api/stolen?c=' + encodeURIComponent(document.cookie));";
const PAGE = '<!doctype html><title>x</title><script src="/media/t/x.js"></script><p>upload</p>';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
  '<script href="/media/t/x.js"></script><script>window.ran = "inline"</script>' +
  '<rect width="100" height="100" fill="#c2185b"/></svg>';

beforeAll(async () => {
  backend = await listen((req, res) => {
    const url = req.url ?? '';
    asked.push(url);
    if (url.startsWith('/api/stolen')) stolen.push(url);
    const files: Record<string, [string, string]> = {
      '/media/t/x.html': ['text/html; charset=utf-8', PAGE],
      '/media/t/x.js': ['application/javascript', SCRIPT],
      '/media/t/x.svg': ['image/svg+xml', SVG],
    };
    const file = files[url];
    if (file) {
      res.writeHead(200, { 'Content-Type': file[0] }).end(file[1]);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"Не найдено."}');
  });
  shop = await startShopServer({ port: 0, apiTarget: backend.url, dataTimeoutMs: 5_000 });
});

afterAll(async () => {
  await shop?.close();
  await backend?.close();
});

describe("uploads under /media never run on the shop's origin", () => {
  /** `path` opened by a logged-in visitor; what the browser refused to run is in `blocked`. */
  async function visit(path: string) {
    const page = await openPage(browser(), '/healthz', {
      baseURL: shop.url,
      waitUntil: 'load',
      allowConsoleErrors: [/violates the following Content Security Policy directive/],
    });
    // The token's cookie mirror: what the upload would read.
    await page.context().addCookies([{ name: 'jwt', value: 'secret-token', url: shop.url }]);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) blocked.push(message.text());
    });
    const response = await page.goto(path, { waitUntil: 'load' });
    return { page, response, blocked };
  }

  it('an HTML page with a script reading document.cookie is a 404, and its script is never asked for', async () => {
    asked.length = 0;
    const { page, response } = await visit('/media/t/x.html');
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(await page.locator('body').innerText()).toBe('Не найдено');
    expect(await page.evaluate(() => 'ran' in window)).toBe(false);
    expect(asked).toEqual(['/media/t/x.html']);
    expect(stolen).toEqual([]);
  });

  it('the script opened on its own is a 404', async () => {
    const { response } = await visit('/media/t/x.js');
    expect(response?.status()).toBe(404);
    expect(await response?.text()).toBe('Не найдено');
  });

  it('an SVG shows as a picture and runs neither its inline script nor one it links', async () => {
    asked.length = 0;
    const { page, response, blocked } = await visit('/media/t/x.svg');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    await expect.poll(() => blocked.length).toBe(2);
    expect(blocked.join('\n')).toMatch(/Loading the script .*\/media\/t\/x\.js/);
    expect(blocked.join('\n')).toMatch(/Executing inline script/);
    expect(await page.evaluate(() => 'ran' in window)).toBe(false);
    expect(asked).toEqual(['/media/t/x.svg']);
    expect(stolen).toEqual([]);
  });
});

describe('paths past /api and /media, through the whole shop', () => {
  it.each(['/media/../admin/', '/api/../admin/', '/api%2f..%2fadmin', '/media\\..\\admin'])(
    'API_TARGET: %s is «Не найдено», and the backend never hears of it',
    async (path) => {
      asked.length = 0;
      const answer = await rawGet(shop.url, path);
      expect(answer.status).toBe(404);
      expect(answer.body).toBe('Не найдено');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(asked).toEqual([]);
    },
  );

  it.each(['/mediafoo', '/apix'])(
    "API_TARGET: %s is the shop's own 404 page, not the backend's",
    async (path) => {
      asked.length = 0;
      const answer = await rawGet(shop.url, path);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('Ягодная лавка');
      expect(asked.filter((url) => !url.startsWith('/api/'))).toEqual([]);
    },
  );

  it.each(['/media/%2e%2e/%2e%2e/package.json', '/media/..%2f..%2fpackage.json', '/api/%2e%2e/x'])(
    'the embedded stub: %s is «Не найдено»',
    async (path) => {
      const answer = await rawGet(baseUrl(), path);
      expect(answer.status).toBe(404);
      expect(answer.body).toBe('Не найдено');
    },
  );

  it("a picture's width in another spelling is a 404", async () => {
    const right = await rawGet(baseUrl(), '/img/v1/160/catalog/product-2.svg');
    expect(right.status).toBe(200);
    const wrong = await rawGet(baseUrl(), '/img/v1/000000000000160/catalog/product-2.svg');
    expect(wrong.status).toBe(404);
  });
});

describe('answers before any page', () => {
  it.each(['x', 'javascript', 'https, x'])(
    'X-Forwarded-Proto: %s from nginx renders the page, on http',
    async (proto) => {
      const answer = await rawGet(baseUrl(), '/catalog', { 'X-Forwarded-Proto': proto });
      expect(answer.status).toBe(200);
      const scheme = proto.startsWith('https') ? 'https' : 'http';
      expect(answer.body).toContain(
        `<meta property="og:url" content="${scheme}://${new URL(baseUrl()).host}/catalog"`,
      );
    },
  );

  it("Node's own 431 for a URL over 16 KB carries the shop's headers", async () => {
    const socket = connect(Number(new URL(baseUrl()).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(`GET /search?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: shop\r\n\r\n`);
    await once(socket, 'close');
    const head = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n')[0] ?? '';
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/^X-Content-Type-Options: nosniff$/m);
    expect(head).toMatch(/^X-Frame-Options: DENY$/m);
    expect(head).toMatch(/^Content-Security-Policy: /m);
  });
});
