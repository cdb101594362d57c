// The shop's one server: pages rendered as HTML, the build's files, and /api and /media from
// the embedded stub or, with API_TARGET, from the real backend. Stateless: any number of
// instances serve the same shop behind nginx or a load balancer.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
import type { DestinationStream } from 'pino';
import type { ViteDevServer } from 'vite';
import type { PublicAnswersOptions, ShopServer } from '../src/server-entry/entry-server.tsx';
import type { StubAppOptions } from '../stub-server/app.ts';
import { builtEntry, type Entry, sourceEntry } from './app-entry.ts';
import { backendAgent } from './backend/backend-agent.ts';
import { backendPathGuard } from './backend/backend-paths.ts';
import { backendProxy } from './backend/backend-proxy.ts';
import { changeHook } from './backend/change-hook.ts';
import { settingsForms } from './forms/settings-forms.ts';
import { visitorForms } from './forms/visitor-forms.ts';
import { imageRoute, type ImageRouteOptions } from './images/image-route.ts';
import { pageRenewal } from './pages/page-renewal.ts';
import {
  buildRenderer,
  devRenderer,
  type PageRenderer,
  type PageRendererOptions,
  type Served,
} from './pages/render.ts';
import { sitemapRoutes } from './pages/sitemap.ts';
import { staticFiles } from './pages/static.ts';
import { type Draining, draining } from './process/draining.ts';
import {
  type MetricsServer,
  serveMetrics,
  type ShopMetrics,
  shopMetrics,
} from './process/metrics.ts';
import { requestIds, shopLog } from './process/request-log.ts';
import { routeNamer } from './process/request-route.ts';
import { plainScheme } from './process/request-scheme.ts';
import { rumRoute } from './process/rum.ts';
import { answerClientError, securityHeaders } from './process/security.ts';
import { serverErrors } from './process/server-errors.ts';
import { shopDefaults } from './process/settings.ts';

/**
 * The checkout when the host runs from its source (tsx); the build's folder (dist/) when built:
 * vite.config.ts mirrors what the host reads into dist/ (sourceFileUrls), so the same relative
 * paths hold in both.
 */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The build: the built host's own folder, or dist/ of the checkout. */
export const BUILD_DIR = existsSync(path.join(REPO_ROOT, 'server', 'entry-server.js'))
  ? REPO_ROOT
  : path.join(REPO_ROOT, 'dist');

/**
 * The server's options: host/process/settings.ts's table (PORT, API_TARGET, ...) as host/main.ts
 * reads it from the environment; any left out take the table's defaults.
 */
export interface ShopServerOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** The real backend (`https://backend.example`); without it the stub is embedded. */
  apiTarget?: string;
  /** The embedded stub's options (data file, test controls, re-seed). */
  stub?: StubAppOptions;
  /** Vite's dev server with hot reload instead of the build. */
  dev?: boolean;
  /** The build; default BUILD_DIR. */
  distDir?: string;
  /** The public origin (`https://shop.example`) for canonical addresses and OpenGraph. */
  siteUrl?: string;
  /** How long a page waits for its data before it goes out with loading states. */
  dataTimeoutMs?: number;
  /** One JSON line per request on stdout (off unless asked: the command line asks). */
  accessLog?: boolean;
  /**
   * Where the JSON log goes (stdout unless a test reads it): the access lines, and a warning for
   * each failed backend call, which is written with the access log off too.
   */
  logDestination?: DestinationStream;
  /**
   * Prometheus' /metrics on an address of its own (off unless asked: the command line asks);
   * port 0 picks a free one.
   */
  metrics?: { port: number; host: string } | false;
  /** Pages say their backend wait and render time in Server-Timing. */
  serverTiming?: boolean;
  /** The share of views whose browser reports its speed to /rum. */
  rumSample?: number;
  /** Order dates are shown in this IANA zone. */
  timeZone?: string;
  /** The image route's cache and limits (host/images/image-route.ts). */
  images?: Omit<ImageRouteOptions, 'mediaBase' | 'fetch'>;
  /** How long a form posted without the app may take, its calls to the backend included. */
  formTimeoutMs?: number;
  /** How long /sitemap.xml's walk of the catalogue may take. */
  sitemapTimeoutMs?: number;
  /**
   * The most sockets to the backend, for each of its two users: the server's own calls (pages,
   * forms, pictures' sources) and the proxy of the browser's /api and /media.
   */
  backendMaxSockets?: number;
  /**
   * The most bytes of one answer of the backend's, to the server's calls and to /api: past it the
   * call fails, its connection cut.
   */
  backendMaxAnswerBytes?: number;
  /** How long /api and /media wait for the backend's whole answer, from the request on. */
  proxyTimeoutMs?: number;
  /** How long the public answers pages render from are kept (src/server-entry/public-answers.ts). */
  publicAnswers?: Partial<PublicAnswersOptions>;
  /** How long nginx or a CDN may keep a public page before it asks again. */
  pageCacheSeconds?: number;
  /**
   * The backend's change hook (host/backend/change-hook.ts; off without a secret), nginx's listener
   * that renews the pages it keeps (host/pages/page-renewal.ts), and the file the list of them
   * outlives a restart in.
   */
  changes?: { secret?: string; renewUrl?: string; keptPagesFile?: string };
  /**
   * How long a stopping instance leaves its idle kept-alive connections open (0, unless asked:
   * closed at once). Longer than nginx's upstream keepalive_timeout, so that nginx closes them
   * first.
   */
  stopGraceMs?: number;
}

export interface RunningShop {
  /** `http://127.0.0.1:3000/` */
  url: string;
  port: number;
  /** Where Prometheus reads the instance's metrics, when they are on. */
  metricsUrl?: string;
  /**
   * Stops taking connections, fails /healthz and closes each connection after its answer, and
   * resolves once the requests in flight are answered.
   */
  close(): Promise<void>;
}

export async function startShopServer(given: ShopServerOptions): Promise<RunningShop> {
  const options = withDefaults(given);
  const distDir = options.distDir ?? BUILD_DIR;
  const vite = options.dev ? await viteServer() : undefined;
  // The app's code, for every part of the host that needs it: the host imports none itself.
  const entry = vite ? await sourceEntry(vite) : await builtEntry(distDir);
  const app = express();
  const basics = requestBasics(app, entry, options);
  // Known once the server listens: the embedded stub answers on the server's own port.
  let ownUrl = '';
  const backend = backendReach(entry, options, () => ownUrl);
  const shopSetup = (code: Entry) =>
    code.createShopServer(appServerSetup(code, options, backend, basics));
  const served = { entry, shop: shopSetup(entry) };
  const renewal = changeRoutes(app, served, options.changes);
  const closeBackend = await backendRoutes(app, entry, options, basics, backend);
  const renderOptions = { ...renderSettings(options, basics), renewal };
  const renderer = vite
    ? devPages(app, vite, served, shopSetup, renderOptions)
    : await builtPages(app, distDir, served, renderOptions);
  basics.allowScripts(renderer.scriptHashes);
  await formRoutes(app, entry, renderer, options, basics.metrics);
  pageRoutes(app, renderer);
  const { server, port, url } = await listen(app, options.port, options.host);
  ownUrl = url;
  const metricsServer = await serveMetricsBeside(server, basics.metrics, options.metrics);
  const stop = stopping(server, basics.drain, options.stopGraceMs, [
    () => vite?.close(),
    closeBackend,
    () => renewal?.close(),
    () => backend.agent.close(),
    // Prometheus reads the last figures while the instance drains; they go with it.
    () => metricsServer?.close(),
    () => basics.log.flush(),
  ]);
  return { url, port, metricsUrl: metricsServer?.url, close: stop };
}

type Options = ReturnType<typeof withDefaults>;

function withDefaults(given: ShopServerOptions) {
  return {
    ...shopDefaults,
    // A server started inside another program (a test, a bench) writes no access log, serves no
    // metrics, and stops at once: no nginx in front of it keeps idle connections. The command
    // line asks for all three.
    accessLog: false,
    metrics: false as const,
    stopGraceMs: 0,
    ...given,
    images: { ...shopDefaults.images, ...given.images },
    changes: { ...shopDefaults.changes, ...given.changes },
    publicAnswers: { ...shopDefaults.publicAnswers, ...given.publicAnswers },
  };
}

/** Vite's dev server (development only), its middleware mounted with the pages (pageRenderer). */
async function viteServer(): Promise<ViteDevServer> {
  const { createServer: createVite } = await import('vite');
  return createVite({ root: REPO_ROOT, server: { middlewareMode: true }, appType: 'custom' });
}

/**
 * What every request goes through first: its id, the drain, the visitor's scheme, the metrics
 * and the access log, the security headers; and /healthz.
 */
function requestBasics(app: Express, entry: Entry, options: Options) {
  app.disable('x-powered-by');
  const drain = draining();
  // Each request's id (nginx's X-Request-Id, or its own), for the log, the backend and metrics.
  app.use(requestIds);
  app.use(drain.track);
  // Behind nginx: the visitor's scheme and host come from its X-Forwarded-* headers.
  app.set('trust proxy', 'loopback');
  plainScheme(app);
  const nameRoute = routeNamer(entry);
  // The image route's queue, once it exists (backendRoutes), for the metrics' gauge.
  let resizes = () => ({ running: 0, waiting: 0 });
  const metrics: ShopMetrics | undefined = options.metrics
    ? shopMetrics({ draining: () => drain.stopping, resizes: () => resizes() })
    : undefined;
  if (metrics) app.use(metrics.requests(nameRoute));
  const log = shopLog(nameRoute, {
    access: options.accessLog,
    destination: options.logDestination,
  });
  if (log.access) app.use(log.access);
  // The build's inline scripts are known once the renderer has read it (allowScripts).
  let scriptHashes: string[] = [];
  app.use(securityHeaders({ csp: !options.dev, scriptHashes: () => scriptHashes }));
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain');
    if (drain.stopping) res.status(503).send('stopping');
    else res.send('ok');
  });
  return {
    drain,
    metrics,
    log,
    countResizes(count: typeof resizes) {
      resizes = count;
    },
    allowScripts(hashes: string[]) {
      scriptHashes = hashes;
    },
  };
}

type RequestBasics = ReturnType<typeof requestBasics>;

/** The backend's change hook and the renewal of nginx's kept pages it starts (off without a secret). */
function changeRoutes(app: Express, { entry, shop }: Served, changes: Options['changes']) {
  const { secret, renewUrl, keptPagesFile } = changes;
  if (!secret) return undefined;
  const { changedShown, isReached, joinChanges } = entry;
  const renewal = pageRenewal({
    renewUrl,
    file: keptPagesFile,
    app: { changedShown, isReached, joinChanges, outdateAnswers: shop.outdateAnswers },
  });
  app.use(changeHook({ secret, accept: (change) => renewal.change(change) }));
  return renewal;
}

/**
 * How the server reaches the backend: the bounded agent, and the addresses of /api and /media
 * (the embedded stub's on the server's own port).
 */
function backendReach(entry: Entry, options: Options, ownUrl: () => string) {
  const target = options.apiTarget?.replace(/\/+$/, '');
  return {
    agent: backendAgent(
      options.backendMaxSockets,
      options.backendMaxAnswerBytes,
      entry.isShoppersOwnCall,
    ),
    apiBase: target ? () => `${target}/api` : () => `${ownUrl()}api`,
    mediaBase: target ? () => `${target}/media/` : () => `${ownUrl()}media/`,
  };
}

type BackendReach = ReturnType<typeof backendReach>;

/**
 * What reaches the backend: the pictures' route, then /api and /media, proxied to the real
 * backend or answered by the embedded stub. Returns what ends the proxy's sockets or the stub.
 */
async function backendRoutes(
  app: Express,
  entry: Entry,
  options: Options,
  basics: RequestBasics,
  { agent, mediaBase }: BackendReach,
) {
  const images = imageRoute(entry, {
    ...options.images,
    mediaBase,
    fetch: agent.fetch,
    pictures: basics.metrics?.pictures,
  });
  basics.countResizes(images.resizes);
  app.use(entry.IMAGE_ROUTE, images);
  // Before anything reaches the backend or the stub: one reading of every path.
  app.use(backendPathGuard());
  // API answers and media (SVG) compressed on the fly when larger than 1 KB.
  app.use(['/api', '/media'], compression());
  return options.apiTarget
    ? proxyRoutes(app, entry, options.apiTarget, options, basics)
    : await embeddedStub(app, options.stub);
}

function proxyRoutes(
  app: Express,
  entry: Entry,
  apiTarget: string,
  options: Options,
  basics: RequestBasics,
) {
  const proxy = backendProxy(entry, apiTarget, {
    maxSockets: options.backendMaxSockets,
    maxAnswerBytes: options.backendMaxAnswerBytes,
    timeoutMs: options.proxyTimeoutMs,
    log: basics.log.calls,
  });
  app.use(proxy.handle);
  return async () => proxy.close();
}

async function embeddedStub(app: Express, stubOptions: StubAppOptions = {}) {
  // Loaded only when embedded: json-server and the stub's data are no weight behind a backend.
  const { createStubApp } = await import('../stub-server/app.ts');
  const stub = createStubApp(stubOptions);
  app.use(stub.app);
  // The stub's last write reaches the disk before the server says it has stopped.
  return () => stub.close();
}

/** The app's server side (createShopServer): the backend, the answers kept, the zone, the log. */
function appServerSetup(
  entry: Entry,
  options: Options,
  backend: BackendReach,
  { metrics, log }: RequestBasics,
) {
  return {
    baseURL: backend.apiBase,
    fetch: backend.agent.callFetch,
    publicAnswers: options.publicAnswers,
    // Unset: the app's own zone (src/lib/shop-time-zone.ts), which the browser formats in too.
    timeZone: options.timeZone ?? entry.DEFAULT_TIME_ZONE,
    recorder: metrics?.recorder,
    log: log.calls,
  };
}

/** The renderer's settings that come from the server's options and its metrics. */
function renderSettings(options: Options, { metrics }: RequestBasics) {
  return {
    siteUrl: options.siteUrl?.replace(/\/+$/, ''),
    dataTimeoutMs: options.dataTimeoutMs,
    pageCacheSeconds: options.pageCacheSeconds,
    pageTimed: metrics?.page,
    serverTiming: options.serverTiming,
    // Only where /rum counts them do browsers send their figures.
    rumSample: metrics ? options.rumSample : 0,
  };
}

/** The pages on the build, with its files. */
async function builtPages(
  app: Express,
  distDir: string,
  served: Served,
  renderOptions: PageRendererOptions,
): Promise<PageRenderer> {
  app.use(staticFiles(path.join(distDir, 'client')));
  return buildRenderer(distDir, served, renderOptions);
}

/** The pages on Vite's dev server: its middleware serves the source's files. */
function devPages(
  app: Express,
  vite: ViteDevServer,
  served: Served,
  createShop: (entry: Entry) => ShopServer,
  renderOptions: PageRendererOptions,
): PageRenderer {
  app.use(vite.middlewares);
  return devRenderer(vite, path.join(REPO_ROOT, 'index.html'), served, createShop, renderOptions);
}

/**
 * The sitemap, the browsers' speed reports (counted only with the metrics on, refused (404)
 * without) and the forms: the settings' forms answer with a redirect, the visitor's may show a
 * whole page again, so compression starts between them.
 */
async function formRoutes(
  app: Express,
  entry: Entry,
  renderer: PageRenderer,
  options: Options,
  metrics: ShopMetrics | undefined,
) {
  const siteUrl = options.siteUrl?.replace(/\/+$/, '');
  app.use(sitemapRoutes(renderer, { siteUrl, timeoutMs: options.sitemapTimeoutMs }));
  if (metrics) app.use(rumRoute(entry, metrics));
  app.use(settingsForms(entry, metrics?.form));
  app.use(compression());
  const formTimeoutMs = options.formTimeoutMs;
  app.use(await visitorForms(renderer, { formTimeoutMs, record: metrics?.form }));
}

/** Every other GET is a page; what is left a plain 404, and a failure a plain 500. */
function pageRoutes(app: Express, renderer: PageRenderer) {
  app.get('*', (req, res, next) => {
    // A file the build does not have is a plain 404, not a page.
    if (/\.[a-z0-9]+$/i.test(req.path) || req.path.startsWith('/assets/')) return next();
    renderer.handle(req, res, next);
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain; charset=utf-8').send('Не найдено');
  });
  app.use(serverErrors);
}

async function listen(app: Express, port: number, host: string) {
  const server: Server = createServer(app);
  // Node's own 400 and 431 (a URL over 16 KB) with the shop's headers.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`;
  return { server, port: address.port, url };
}

/** Prometheus' /metrics on its own address, when asked; the shop's server closed if it fails. */
async function serveMetricsBeside(
  server: Server,
  metrics: ShopMetrics | undefined,
  where: Options['metrics'],
): Promise<MetricsServer | undefined> {
  if (!metrics || !where) return undefined;
  try {
    return await serveMetrics(metrics.registry, where.port, where.host);
  } catch (error) {
    server.close();
    throw error;
  }
}

/**
 * The server's close: once, however often asked. Every answer from now on closes its connection,
 * and new connections are refused (nginx sends those requests to the other instance, a POST too:
 * it never reached this one). net's close, not http's: http's would also end the idle kept-alive
 * connections at once, and nginx may be sending a request on one just then, which it cannot
 * repeat if it is a POST. nginx lets an idle connection go itself after its keepalive_timeout
 * (4 s); those still idle after the grace are ended here. Once the last connection is gone, the
 * rest closes in order (`then`).
 */
function stopping(
  server: Server,
  drain: Draining,
  graceMs: number,
  then: (() => Promise<unknown> | unknown)[],
): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= then.reduce<Promise<void>>(
      (previous, next) => previous.then(async () => void (await next())),
      new Promise<void>((resolve, reject) => {
        drain.stop();
        NetServer.prototype.close.call(server, (error) => (error ? reject(error) : resolve()));
        setTimeout(() => server.closeIdleConnections(), graceMs).unref();
      }),
    );
    return closing;
  };
}
