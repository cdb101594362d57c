// The shop's one server: pages rendered as HTML, the build's files, and /api and /media from
// the embedded stub or, with API_TARGET, from the real backend. Stateless: any number of
// instances serve the same shop behind nginx or a load balancer.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import express, { type Request, type Response } from 'express';
import type { DestinationStream } from 'pino';
import type { ViteDevServer } from 'vite';
import type { StubAppOptions } from '../stub-server/app.ts';
import { serverErrors } from './process/server-errors.ts';
import type { PublicAnswersOptions } from '../src/server-entry/entry-server.tsx';
import { builtEntry, sourceEntry } from './app-entry.ts';
import { changeHook } from './backend/change-hook.ts';
import { backendAgent } from './backend/backend-agent.ts';
import { backendPathGuard } from './backend/backend-paths.ts';
import { backendProxy } from './backend/backend-proxy.ts';
import { draining } from './process/draining.ts';
import { imageRoute, type ImageRouteOptions } from './images/image-route.ts';
import {
  type MetricsServer,
  serveMetrics,
  type ShopMetrics,
  shopMetrics,
} from './process/metrics.ts';
import { pageRenewal } from './pages/page-renewal.ts';
import { buildRenderer, devRenderer, type PageRenderer } from './pages/render.ts';
import { requestIds, shopLog } from './process/request-log.ts';
import { routeNamer } from './process/request-route.ts';
import { plainScheme } from './process/request-scheme.ts';
import { rumRoute } from './process/rum.ts';
import { answerClientError, securityHeaders } from './process/security.ts';
import { shopDefaults } from './process/settings.ts';
import { settingsForms } from './forms/settings-forms.ts';
import { sitemapRoutes } from './pages/sitemap.ts';
import { staticFiles } from './pages/static.ts';
import { visitorForms } from './forms/visitor-forms.ts';

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
 * The server's options: host/process/settings.ts's table (PORT, API_TARGET, ...) as host/main.ts reads it
 * from the environment; any left out take the table's defaults.
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
   * The backend's change hook (host/backend/change-hook.ts; off without a secret), nginx's listener that
   * renews the pages it keeps (host/pages/page-renewal.ts), and the file the list of them outlives a
   * restart in.
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
  const options = {
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
  const host = options.host;
  const distDir = options.distDir ?? BUILD_DIR;
  // Vite (development only) is loaded and started here, its middleware mounted further down.
  let vite: ViteDevServer | undefined;
  if (options.dev) {
    const { createServer: createVite } = await import('vite');
    vite = await createVite({
      root: REPO_ROOT,
      server: { middlewareMode: true },
      appType: 'custom',
    });
  }
  // The app's code, for every part of the host that needs it: the host imports none itself.
  const entry = vite ? await sourceEntry(vite) : await builtEntry(distDir);
  const app = express();
  app.disable('x-powered-by');
  const drain = draining();
  // Each request's id (nginx's X-Request-Id, or its own), for the log, the backend and metrics.
  app.use(requestIds);
  app.use(drain.track);
  // Behind nginx: the visitor's scheme and host come from its X-Forwarded-* headers.
  app.set('trust proxy', 'loopback');
  plainScheme(app);
  const nameRoute = routeNamer(entry);
  // The image route's queue, once it exists (below), for the metrics' gauge.
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
  // The build's inline scripts are known once the renderer has read it (below).
  let scriptHashes: string[] = [];
  app.use(securityHeaders({ csp: !options.dev, scriptHashes: () => scriptHashes }));
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain');
    if (drain.stopping) res.status(503).send('stopping');
    else res.send('ok');
  });
  const { secret, renewUrl, keptPagesFile } = options.changes;
  const renewal = secret ? pageRenewal({ renewUrl, file: keptPagesFile, app: entry }) : undefined;
  if (secret && renewal) {
    app.use(changeHook({ secret, accept: (change) => renewal.change(change) }));
  }

  // Filled in once the server listens: the embedded stub answers on the server's own port.
  let ownUrl = '';
  let closeBackend = async () => {};
  const apiBase = options.apiTarget
    ? `${options.apiTarget.replace(/\/+$/, '')}/api`
    : () => `${ownUrl}api`;
  const mediaBase = options.apiTarget ? `${options.apiTarget.replace(/\/+$/, '')}/media/` : '';
  const maxAnswerBytes = options.backendMaxAnswerBytes;
  const agent = backendAgent(options.backendMaxSockets, maxAnswerBytes, entry.isShoppersOwnCall);
  const images = imageRoute(entry, {
    ...options.images,
    mediaBase: () => mediaBase || `${ownUrl}media/`,
    fetch: agent.fetch,
    pictures: metrics?.pictures,
  });
  resizes = images.resizes;
  app.use(entry.IMAGE_ROUTE, images);
  // Before anything reaches the backend or the stub: one reading of every path.
  app.use(backendPathGuard());
  // API answers and media (SVG) compressed on the fly when larger than 1 KB.
  app.use(['/api', '/media'], compression());
  if (options.apiTarget) {
    const proxy = backendProxy(entry, options.apiTarget, {
      maxSockets: options.backendMaxSockets,
      maxAnswerBytes,
      timeoutMs: options.proxyTimeoutMs,
      log: log.calls,
    });
    app.use(proxy.handle);
    closeBackend = async () => proxy.close();
  } else {
    // Loaded only when embedded: json-server and the stub's data are no weight behind a backend.
    const { createStubApp } = await import('../stub-server/app.ts');
    const stub = createStubApp(options.stub ?? {});
    app.use(stub.app);
    // The stub's last write reaches the disk before the server says it has stopped.
    closeBackend = () => stub.close();
  }

  let renderer: PageRenderer;
  const renderOptions = {
    apiBase: typeof apiBase === 'string' ? () => apiBase : apiBase,
    backendFetch: agent.callFetch,
    publicAnswers: options.publicAnswers,
    siteUrl: options.siteUrl?.replace(/\/+$/, ''),
    dataTimeoutMs: options.dataTimeoutMs,
    pageCacheSeconds: options.pageCacheSeconds,
    // Unset: the app's own zone (src/lib/shop-time-zone.ts), which the browser formats in too.
    timeZone: options.timeZone ?? entry.DEFAULT_TIME_ZONE,
    renewal,
    recorder: metrics?.recorder,
    log: log.calls,
    pageTimed: metrics?.page,
    serverTiming: options.serverTiming,
    // Only where /rum counts them do browsers send their figures.
    rumSample: metrics ? options.rumSample : 0,
  };
  let closeVite = async () => {};
  if (vite) {
    closeVite = () => vite.close();
    app.use(vite.middlewares);
    renderer = devRenderer(vite, path.join(REPO_ROOT, 'index.html'), renderOptions);
  } else {
    app.use(staticFiles(path.join(distDir, 'client')));
    renderer = await buildRenderer(distDir, entry, renderOptions);
  }
  scriptHashes = renderer.scriptHashes;

  app.use(
    sitemapRoutes(renderer, {
      siteUrl: renderOptions.siteUrl,
      timeoutMs: options.sitemapTimeoutMs,
    }),
  );
  // The speed shoppers' browsers saw: counted only with the metrics on, refused (404) without.
  if (metrics) app.use(rumRoute(entry, metrics));
  app.use(settingsForms(entry, metrics?.form));
  app.use(compression());
  // After compression: a form shown again is a whole page.
  app.use(
    await visitorForms(renderer, { formTimeoutMs: options.formTimeoutMs, record: metrics?.form }),
  );
  app.get('*', (req, res, next) => {
    // A file the build does not have is a plain 404, not a page.
    if (/\.[a-z0-9]+$/i.test(req.path) || req.path.startsWith('/assets/')) return next();
    renderer.handle(req, res, next);
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain; charset=utf-8').send('Не найдено');
  });
  app.use(serverErrors);

  const server: Server = createServer(app);
  // Node's own 400 and 431 (a URL over 16 KB) with the shop's headers.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  ownUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  let metricsServer: MetricsServer | undefined;
  if (metrics && options.metrics) {
    try {
      metricsServer = await serveMetrics(
        metrics.registry,
        options.metrics.port,
        options.metrics.host,
      );
    } catch (error) {
      server.close();
      throw error;
    }
  }
  let closing: Promise<void> | null = null;
  return {
    url: ownUrl,
    port,
    metricsUrl: metricsServer?.url,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        // Every answer from now on closes its connection, and new connections are refused (nginx
        // sends those requests to the other instance, a POST too: it never reached this one).
        // net's close, not http's: http's would also end the idle kept-alive connections at once,
        // and nginx may be sending a request on one just then, which it cannot repeat if it is a
        // POST. nginx lets an idle connection go itself after its keepalive_timeout (4 s); those
        // still idle after the grace are ended here. Resolves once the last connection is gone.
        drain.stop();
        NetServer.prototype.close.call(server, (error) => (error ? reject(error) : resolve()));
        setTimeout(() => server.closeIdleConnections(), options.stopGraceMs).unref();
      })
        .then(closeVite)
        .then(closeBackend)
        .then(() => renewal?.close())
        .then(() => agent.close())
        // Prometheus reads the last figures while the instance drains; they go with it.
        .then(() => metricsServer?.close())
        .then(() => log.flush());
      return closing;
    },
  };
}
