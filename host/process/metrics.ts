// The instance's Prometheus metrics (prom-client), served on an address of their own
// (METRICS_HOST:METRICS_PORT, loopback by default), never through nginx's public server. Names
// follow Prometheus' conventions (base units, `_total`, `_seconds`); every label comes from a
// closed list (host/process/request-route.ts names routes; src/server-entry/recorder.ts says what
// the app's server side reports), so no request can add a series. docs/operate.md says what to
// watch; deploy/alerts.yml what pages someone.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServerRecorder } from '../../src/server-entry/entry-server.tsx';
import { requestOf } from './request-log.ts';
import type { RouteLabel } from './request-route.ts';

/** Seconds, from a fast page to the proxy's 20 s limit. */
const TIME_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
/** The checkout of the app (the browser's call, through /api). */
const ORDER_CALL = '/api/catalog/order_commit';
/** How many checkout attempts' keys are remembered, so that one attempt is counted once. */
const ATTEMPTS_KEPT = 10_000;

/**
 * What the image route and its resizer report (host/images/image-route.ts,
 * host/images/image-resize.ts).
 */
export interface PictureRecorder {
  resized(format: string): void;
  failed(reason: string): void;
  /** A resize that waited for its turn. */
  queued(): void;
  resizerStarted(): void;
}

export interface ShopMetrics {
  registry: Registry;
  /** Handed to the app's server side (createShopServer). */
  recorder: ServerRecorder;
  pictures: PictureRecorder;
  /** Counts every answered request by its route (named by `name`), and the app's checkouts. */
  requests(
    name: (req: Request) => RouteLabel,
  ): (req: Request, res: Response, next: NextFunction) => void;
  /** A page rendered: how long it waited for the backend, and then rendered. */
  page(route: string, backendWaitMs: number, renderMs: number): void;
  /** A form of the host's own (the cookie notice, the theme) or a post refused as another site's. */
  form(form: string, outcome: string): void;
  /** A histogram of the figures shoppers' browsers report (host/process/rum.ts). */
  histogram(name: string, help: string, buckets: number[], labelNames: string[]): Histogram;
  counter(name: string, help: string, labelNames: string[]): Counter;
}

export interface MetricsSources {
  /** Whether the instance is stopping (host/process/draining.ts). */
  draining(): boolean;
  /** Pictures being resized now, and waiting for their turn. */
  resizes(): { running: number; waiting: number };
}

export function shopMetrics(sources: MetricsSources): ShopMetrics {
  const registry = new Registry();
  // Event-loop lag, heap, RSS, GC, open files, as prom-client collects them for any Node process.
  collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const histogram = (name: string, help: string, buckets: number[], labelNames: string[]) =>
    new Histogram({ name, help, buckets, labelNames, registers: [registry] });

  const requests = histogram(
    'shop_http_request_duration_seconds',
    'Answered requests by what served them, route, method and status class, and their time',
    TIME_BUCKETS,
    ['handler', 'route', 'method', 'status'],
  );
  const render = histogram(
    'shop_page_render_seconds',
    "A page's render once its data was in (React, and the HTML put together)",
    TIME_BUCKETS,
    ['route'],
  );
  const backendWait = histogram(
    'shop_page_backend_wait_seconds',
    'How long a page waited for its data (calls to the backend, or the answers kept)',
    TIME_BUCKETS,
    ['route'],
  );
  const calls = histogram(
    'shop_backend_call_duration_seconds',
    "The server's own calls to the backend (pages, forms) by the pact's name and outcome",
    TIME_BUCKETS,
    ['call', 'outcome'],
  );
  const shared = counter(
    'shop_shared_answers_total',
    'Public answers pages render from: fresh from memory, fetched, stale (the backend failed), failed',
    ['source'],
  );
  const forms = counter(
    'shop_forms_total',
    'Forms posted without the app (before it runs, or without JavaScript), by form and outcome',
    ['form', 'outcome'],
  );
  const orders = counter(
    'shop_orders_placed_total',
    'Orders placed, through the app (/api) or its form without JavaScript; one per checkout attempt',
    ['via'],
  );
  const refusals = counter(
    'shop_checkouts_refused_total',
    'Checkouts that placed no order, by why',
    ['via', 'reason'],
  );
  const resized = counter('shop_pictures_resized_total', 'Pictures resized, by format', ['format']);
  const pictureFailures = counter(
    'shop_picture_failures_total',
    'Pictures answered with the placeholder, by why',
    ['reason'],
  );
  const queued = counter(
    'shop_picture_resizes_queued_total',
    'Resizes that waited for their turn',
    [],
  );
  const resizerStarts = counter(
    'shop_picture_resizer_starts_total',
    'Resizer processes started (one after an idle spell, or after one crashed)',
    [],
  );
  new Gauge({
    name: 'shop_picture_resizes',
    help: 'Pictures being resized now, and waiting for their turn',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { running, waiting } = sources.resizes();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new Gauge({
    name: 'shop_draining',
    help: '1 while the instance stops (SIGTERM): it finishes what it started and takes nothing new',
    registers: [registry],
    collect() {
      this.set(sources.draining() ? 1 : 0);
    },
  });
  const limit = memoryLimitBytes();
  if (limit !== null) {
    new Gauge({
      name: 'shop_memory_limit_bytes',
      help: "The memory the instance's cgroup may use (systemd's MemoryMax)",
      registers: [registry],
    }).set(limit);
  }
  // The series the alerts and the operator read are there from the start, at 0.
  for (const via of ['app', 'form']) orders.labels(via).inc(0);
  for (const source of ['memory', 'fetched', 'stale', 'failed']) shared.labels(source).inc(0);

  const attempts = new LRUCache<string, true>({ max: ATTEMPTS_KEPT });
  /** An order placed under attempt `key`: counted unless this instance counted the attempt. */
  const placed = (via: string, key: string | undefined) => {
    if (key !== undefined) {
      if (attempts.has(key)) return;
      attempts.set(key, true);
    }
    orders.labels(via).inc();
  };

  const recorder: ServerRecorder = {
    backendCall: (call, outcome, seconds) => calls.labels(call, outcome).observe(seconds),
    sharedAnswer: (source) => shared.labels(source).inc(),
    form: (form, outcome) => forms.labels(form, outcome).inc(),
    checkout: (end) => {
      if ('placed' in end) placed('form', end.placed);
      else refusals.labels('form', end.refused).inc();
    },
  };

  return {
    registry,
    recorder,
    pictures: {
      resized: (format) => resized.labels(format).inc(),
      failed: (reason) => pictureFailures.labels(reason).inc(),
      queued: () => queued.inc(),
      resizerStarted: () => resizerStarts.inc(),
    },
    requests(name) {
      return (req, res, next) => {
        const context = requestOf(req);
        res.once('close', () => {
          const label = (context.label ??= name(req));
          const method = METHODS.has(req.method) ? req.method : 'OTHER';
          const status = `${Math.floor(res.statusCode / 100)}xx`;
          const seconds = (performance.now() - context.started) / 1000;
          requests.labels(label.handler, label.route, method, status).observe(seconds);
          if (label.route === ORDER_CALL && req.method === 'POST') {
            const key = req.get('idempotency-key');
            const refused = appCheckoutRefusal(res.statusCode);
            if (refused === undefined) placed('app', key);
            else if (refused !== null) refusals.labels('app', refused).inc();
          }
        });
        next();
      };
    },
    page(route, backendWaitMs, renderMs) {
      backendWait.labels(route).observe(backendWaitMs / 1000);
      render.labels(route).observe(renderMs / 1000);
    },
    form: (form, outcome) => forms.labels(form, outcome).inc(),
    histogram,
    counter,
  };
}

/**
 * Why the app's checkout placed no order, by the status /api answered it with: undefined when it
 * placed one, null when it is no answer yet (409: the attempt's first post is being placed, and
 * the app asks again).
 */
function appCheckoutRefusal(status: number): string | null | undefined {
  if (status < 300) return undefined;
  if (status === 409) return null;
  if (status === 400) return 'invalid';
  if (status === 401 || status === 403) return 'forbidden';
  // The proxy's own answer when the backend did not answer in time: the order may be placed.
  if (status === 504) return 'maybe_placed';
  return 'failed';
}

/** The limit of the process's cgroup (v2), or null when it has none. */
function memoryLimitBytes(): number | null {
  try {
    const group = /^0::(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
    if (group === undefined) return null;
    const max = readFileSync(`/sys/fs/cgroup${group}/memory.max`, 'utf8').trim();
    return /^\d+$/.test(max) ? Number(max) : null;
  } catch {
    return null;
  }
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** GET /metrics on `host`:`port`, and nothing else there. */
export async function serveMetrics(
  registry: Registry,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Не найдено');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
