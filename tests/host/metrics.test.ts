// The instance's metrics (host/process/metrics.ts): what the app's server side reports of its calls
// to the backend, each failure by its own outcome (src/api/call-failure.ts); requests by route
// pattern, so that no path adds a series; one order per checkout attempt; and /metrics on an
// address of its own.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProduct } from '../../src/api/catalog';
import { backendAgent } from '../../host/backend/backend-agent.ts';
import { serveMetrics, shopMetrics } from '../../host/process/metrics.ts';
import { requestIds } from '../../host/process/request-log.ts';
import { routeNamer } from '../../host/process/request-route.ts';
import { backendCalls } from '../../src/server-entry/backend-calls';
import type { CallOutcome, ServerRecorder } from '../../src/server-entry/recorder';
import { callPattern } from '../../src/api/answer-shapes';
import { FORMS } from '../../src/server-entry/forms';
import { matchPage } from '../../src/app/routes';
import { IMAGE_ROUTE } from '../../src/lib/image-url';
import { freePort } from '../e2e/nginx-recipe';
import { raspberry } from './fake-replies';

const MAX_BYTES = 10_000;

/** A backend whose product `id` misbehaves in one way each. */
let backend: Server;
let base = '';
beforeAll(async () => {
  backend = createServer((req, res) => {
    const id = Number(/(\d+)$/.exec(req.url ?? '')?.[1]);
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
    };
    if (id === 7) return send(200, raspberry);
    if (id === 8) return send(404, { detail: 'Не найдено.' });
    if (id === 9) return send(500, { detail: 'boom' });
    if (id === 10) return send(200, { id: 10 });
    if (id === 11) return res.writeHead(302, { location: 'http://elsewhere.example/' }).end();
    if (id === 12) {
      // Streamed, no Content-Length: the cap is met on the way.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"x":"${'a'.repeat(MAX_BYTES * 2)}"}`);
      return;
    }
    // 13: never answers.
  });
  backend.listen(0, '127.0.0.1');
  await once(backend, 'listening');
  base = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/api`;
});
afterAll(() => {
  backend.closeAllConnections();
  backend.close();
});

function recording() {
  const calls: [string, CallOutcome][] = [];
  const recorder: ServerRecorder = {
    backendCall: (call, outcome) => calls.push([call, outcome]),
    sharedAnswer() {},
    form() {},
    checkout() {},
  };
  return { calls, recorder };
}

const visitor = { cookies: {}, forwardedFor: '203.0.113.7', proto: 'https', host: 'shop.example' };

describe("the server's calls to the backend", () => {
  it.each([
    [7, 'ok'],
    [8, '4xx'],
    [9, '5xx'],
    [10, 'bad_shape'],
    [11, 'redirect'],
    [12, 'too_big'],
    [13, 'timeout'],
  ])('product %i: counted under its pact name as %s', async (id, outcome) => {
    const agent = backendAgent(4, MAX_BYTES);
    const { calls, recorder } = recording();
    // Only the backend that never answers meets the deadline: the others have all the time a
    // busy machine needs, so that their outcome is theirs, never a timeout.
    const budgetMs = id === 13 ? 300 : 60_000;
    const request = backendCalls(
      { baseURL: base, fetch: agent.callFetch, recorder },
      visitor,
      budgetMs,
    );
    try {
      await getProduct(id, request.api).catch(() => {});
    } finally {
      request.end();
      await agent.close();
    }
    expect(calls).toEqual([['GET /api/catalog/product_retrieve/:id', outcome]]);
  });

  it('counts a backend that is down as refused, and one with every socket taken too', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/api`;
    const agent = backendAgent(1, MAX_BYTES);
    const { calls, recorder } = recording();
    const down = backendCalls({ baseURL: closed, fetch: agent.callFetch, recorder }, visitor, 2000);
    const busy = backendCalls({ baseURL: base, fetch: agent.callFetch, recorder }, visitor, 300);
    // Another visitor's: a visitor's own further calls wait for theirs
    // (host/backend/backend-share.ts).
    const other = { ...visitor, forwardedFor: '203.0.113.8' };
    const late = backendCalls({ baseURL: base, fetch: agent.callFetch, recorder }, other, 300);
    try {
      await getProduct(7, down.api).catch(() => {});
      // One socket: the stalled call holds it, the next finds none.
      const stalled = getProduct(13, busy.api).catch(() => {});
      await getProduct(7, late.api).catch(() => {});
      await stalled;
    } finally {
      down.end();
      busy.end();
      late.end();
      await agent.close();
    }
    expect(calls.map(([, outcome]) => outcome)).toEqual(['refused', 'refused', 'timeout']);
  });

  it('tells nothing of a call ended because its request was answered', async () => {
    const agent = backendAgent(4, MAX_BYTES);
    const { calls, recorder } = recording();
    const request = backendCalls(
      { baseURL: base, fetch: agent.callFetch, recorder },
      visitor,
      60_000,
    );
    const stalled = getProduct(13, request.api).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    request.end();
    await stalled;
    await agent.close();
    expect(calls).toEqual([]);
  });

  it('sends the request id on every call', async () => {
    const seen: (string | undefined)[] = [];
    const fetchSeen: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers).get('x-request-id') ?? undefined);
      return fetch(input, init);
    };
    const request = backendCalls(
      { baseURL: base, fetch: fetchSeen },
      { ...visitor, requestId: 'f00d' },
      2000,
    );
    await getProduct(7, request.api);
    request.end();
    expect(seen).toEqual(['f00d']);
  });
});

/** The shop's own route naming, on the app's real tables. */
const nameRoute = routeNamer({
  FORMS,
  IMAGE_ROUTE,
  callPattern,
  pageRoute: (url: string) => matchPage(url)?.route.path ?? null,
});

/** An app that counts its requests as the shop does, answering each by what it is. */
function countedApp() {
  const metrics = shopMetrics({
    draining: () => false,
    resizes: () => ({ running: 0, waiting: 0 }),
  });
  const app = express();
  app.use(requestIds);
  app.use(metrics.requests(nameRoute));
  app.use((req, res) => {
    const { handler, route } = nameRoute(req);
    res.status(handler === 'page' && route !== '(not found)' ? 200 : 404).end();
  });
  return { app, metrics };
}

async function listening(app: express.Express) {
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => server.close() };
}

const shopSeries = async (metrics: ReturnType<typeof shopMetrics>) =>
  (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('shop_')).length;

const random = () => Math.random().toString(36).slice(2, 10);

describe('requests by route', () => {
  it('names pages by their route and /api by its call, never by path', () => {
    const at = (method: string, url: string) =>
      nameRoute({ method, originalUrl: url } as express.Request);
    expect(at('GET', '/product/7?x=1')).toEqual({ handler: 'page', route: '/product/:id' });
    expect(at('GET', '/Product/123456/')).toEqual({ handler: 'page', route: '/product/:id' });
    expect(at('GET', '/no/such/page')).toEqual({ handler: 'page', route: '(not found)' });
    expect(at('PUT', '/api/catalog/basket/9')).toEqual({
      handler: 'api',
      route: '/api/catalog/basket/:id',
    });
    expect(at('GET', '/api/whatever/1')).toEqual({ handler: 'api', route: '/api/(other)' });
    expect(at('POST', '/commit')).toEqual({ handler: 'form', route: '/commit' });
    expect(at('POST', '/login/')).toEqual({ handler: 'form', route: '/login' });
    expect(at('GET', '/img/v1/160/products/a.jpg')).toEqual({ handler: 'image', route: '/img' });
    expect(at('GET', '/assets/index-x.js')).toEqual({ handler: 'asset', route: '/assets' });
  });

  it('adds no series for 1,000 random paths', async () => {
    const { app, metrics } = countedApp();
    const server = await listening(app);
    const kinds = [
      () => `/product/${Math.floor(Math.random() * 1e9)}`,
      () => `/section/${Math.floor(Math.random() * 1e9)}?page=${random()}`,
      () => `/${random()}/${random()}`,
      () => `/api/catalog/product_retrieve/${Math.floor(Math.random() * 1e9)}`,
      () => `/api/${random()}`,
      () => `/media/${random()}.jpg`,
      () => `/img/v1/160/${random()}.jpg`,
      () => `/assets/${random()}.js`,
      () => `/${random()}.php`,
      () => `/search?q=${random()}`,
    ];
    try {
      // One of each kind first: the series they make are the only ones there are.
      for (const kind of kinds) await fetch(server.url + kind());
      const before = await shopSeries(metrics);
      for (let index = 0; index < 1000; index += 1) {
        await fetch(server.url + kinds[index % kinds.length]!());
      }
      expect(await shopSeries(metrics)).toBe(before);
      const text = await metrics.registry.metrics();
      expect(text).toContain(
        'shop_http_request_duration_seconds_count{handler="page",route="/product/:id",method="GET",status="2xx"} 101',
      );
    } finally {
      server.close();
    }
  });
});

describe('orders', () => {
  it('counts one order per checkout attempt, through the app or its form', async () => {
    const { app, metrics } = countedApp();
    const commits = express();
    commits.use(requestIds, metrics.requests(nameRoute));
    commits.post('/api/catalog/order_commit', (req, res) => {
      res.status(Number(req.get('x-answer'))).end();
    });
    commits.use(app);
    const server = await listening(commits);
    const post = (key: string, status: number) =>
      fetch(`${server.url}/api/catalog/order_commit`, {
        method: 'POST',
        headers: { 'idempotency-key': key, 'x-answer': String(status) },
      });
    try {
      // An attempt that waited (409), then got the order: one. Another attempt: two.
      await post('a', 409);
      await post('a', 201);
      await post('a', 201);
      await post('b', 201);
      await post('c', 400);
      await post('d', 504);
      metrics.recorder.checkout({ placed: 'e' });
      metrics.recorder.checkout({ placed: 'e' });
      metrics.recorder.checkout({ refused: 'late' });
      const text = await metrics.registry.metrics();
      expect(text).toContain('shop_orders_placed_total{via="app"} 2');
      expect(text).toContain('shop_orders_placed_total{via="form"} 1');
      expect(text).toContain('shop_checkouts_refused_total{via="app",reason="invalid"} 1');
      expect(text).toContain('shop_checkouts_refused_total{via="app",reason="maybe_placed"} 1');
      expect(text).toContain('shop_checkouts_refused_total{via="form",reason="late"} 1');
    } finally {
      server.close();
    }
  });
});

describe('/metrics', () => {
  it('is served on its own address, in Prometheus text, with the process figures', async () => {
    const metrics = shopMetrics({
      draining: () => true,
      resizes: () => ({ running: 1, waiting: 3 }),
    });
    const served = await serveMetrics(metrics.registry, 0, '127.0.0.1');
    try {
      const answer = await fetch(served.url);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await answer.text();
      for (const name of [
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        '# TYPE nodejs_gc_duration_seconds histogram',
      ]) {
        expect(text).toContain(name);
      }
      expect(text).toContain('shop_draining 1');
      expect(text).toContain('shop_picture_resizes{state="waiting"} 3');
      expect((await fetch(served.url.replace('/metrics', '/'))).status).toBe(404);
    } finally {
      await served.close();
    }
  });
});
