// The shop's server in front of a backend it does not control: a backend that holds its
// answers, one that is down, the real-backend proxy (API_TARGET) and two visitors at once.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningShop, startShopServer } from '../../server/app.ts';
import { baseUrl, control } from './browser';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A stand-in backend on a free port; `handler` answers (or holds) each request. */
async function backend(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

const started: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of started.splice(0).reverse()) await item.close();
});

async function shop(apiTarget: string, dataTimeoutMs = 300): Promise<RunningShop> {
  const running = await startShopServer({ port: 0, apiTarget, dataTimeoutMs });
  started.push(running);
  return running;
}

function closing(server: Server) {
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a slow or absent backend', () => {
  it('a held answer: the page goes out with its loading state, and the browser asks later', async () => {
    const held: ServerResponse[] = [];
    const api = await backend((_req, res) => held.push(res));
    started.push(closing(api.server));
    const running = await shop(api.url);
    // The backend never answers while the test looks: the server must not wait for it.
    const response = await fetch(`${running.url}product/7`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('"answers":{}');
    expect(held.length).toBeGreaterThan(0);
  });

  it('a backend that is down: the page still goes out, never a bare 500', async () => {
    const api = await backend(() => {});
    await closing(api.server).close();
    const running = await shop(api.url, 5_000);
    const response = await fetch(`${running.url}catalog`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Каталог');
    const proxied = await fetch(`${running.url}api/catalog/section_root`);
    expect(proxied.status).toBeGreaterThanOrEqual(500);
    expect(await proxied.text()).not.toMatch(/ECONNREFUSED|at |node_modules/);
  });
});

describe('API_TARGET', () => {
  it('renders from the backend and passes /api and /media through, cookies included', async () => {
    const seen: { url: string; cookie: string | undefined }[] = [];
    const api = await backend((req, res) => {
      seen.push({ url: req.url ?? '', cookie: req.headers.cookie });
      if (req.url === '/api/catalog/product_retrieve/3') {
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', 'sessionid=abc; Path=/; HttpOnly');
        res.end(
          JSON.stringify({
            id: 3,
            name: 'Жимолость с бэкенда',
            image: null,
            unit: 'кг',
            unit_step: 0.1,
            price: 555,
            rest: 2,
            available: true,
          }),
        );
      } else if (req.url === '/api/catalog/product_breadcrumbs/3') {
        res.setHeader('content-type', 'application/json');
        res.end('[]');
      } else if (req.url === '/media/x.svg') {
        res.setHeader('content-type', 'image/svg+xml');
        res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
      } else {
        res.statusCode = 404;
        res.end('{"detail":"Страница не найдена."}');
      }
    });
    started.push(closing(api.server));
    const running = await shop(api.url, 10_000);
    const html = await (await fetch(`${running.url}product/3`)).text();
    expect(html).toContain('Жимолость с бэкенда');
    expect(html).toMatch(/555\s₽ \/ кг/);

    const proxied = await fetch(`${running.url}api/catalog/product_retrieve/3`, {
      headers: { cookie: 'sessionid=visitor; csrftoken=t' },
    });
    expect(proxied.headers.getSetCookie()).toEqual(['sessionid=abc; Path=/; HttpOnly']);
    expect(seen.at(-1)).toEqual({
      url: '/api/catalog/product_retrieve/3',
      cookie: 'sessionid=visitor; csrftoken=t',
    });
    expect((await fetch(`${running.url}media/x.svg`)).status).toBe(200);
    // The server's own calls for the page carry no visitor's cookie.
    expect(seen[0]?.cookie).toBeUndefined();
  });
});

describe('two visitors at once', () => {
  it('pages rendered concurrently for two sessions carry nothing of the other', async () => {
    // Visitor A has raspberries in the basket; visitor B has accepted cookies.
    await control('reset');
    const first = await fetch(`${baseUrl()}/api/catalog/basket`);
    const cookies = first.headers.getSetCookie().map((line) => line.split(';')[0] ?? '');
    const sessionA = cookies.join('; ');
    const csrf = /csrftoken=([^;]+)/.exec(sessionA)?.[1] ?? '';
    const put = await fetch(`${baseUrl()}/api/catalog/basket/7`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: sessionA, 'x-csrftoken': csrf },
      body: JSON.stringify({ amount: 3 }),
    });
    expect(put.status).toBe(200);
    const pages = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        fetch(`${baseUrl()}/product/7`, {
          headers: { cookie: index % 2 ? 'cookieAccepted=true' : sessionA },
        }).then(async (response) => ({ accepted: index % 2 === 1, html: await response.text() })),
      ),
    );
    for (const { accepted, html } of pages) {
      // Nobody's basket is in the HTML: every card offers «В корзину».
      expect(html).toContain('В корзину');
      expect(html).not.toMatch(/value="3(,0)?"/);
      expect(html.includes('Уведомление о cookie')).toBe(!accepted);
    }
  });
});
