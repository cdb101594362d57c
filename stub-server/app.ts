// The stub backend as an express app that handles /api, /media and (with controls) /__control
// and lets every other request fall through with next(): the shop's server (host/app.ts)
// mounts it in every mode, and server.ts serves it alone.
import { resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import jsonServer from 'json-server';
import { type StubContext, defaultSettings } from './context.ts';
import { DEFAULT_DATA_FILE, Store } from './db.ts';
import { FaultRegistry } from './faults.ts';
import { OrderAttempts } from './order-attempts.ts';
import { apiErrors, apiNotFound } from './http.ts';
import { mediaRouter } from './media.ts';
import { authRoutes } from './routes/auth.ts';
import { basketRoutes } from './routes/basket.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { contentRoutes } from './routes/content.ts';
import { controlRoutes } from './routes/control.ts';
import { orderRoutes } from './routes/orders.ts';
import { csrfGuard, expireSessions, identify } from './session.ts';

export interface StubAppOptions {
  /** The JSON data file; default `stub-server/data/db.json` or env STUB_DATA_FILE. */
  dataFile?: string;
  /** Mount the test-only /__control endpoints. */
  controls?: boolean;
  /** Re-seed the data file from the fixtures before starting. */
  reset?: boolean;
}

export interface StubApp {
  app: express.Express;
  /** Re-seeds the data file from the fixtures; resolves once that is on disk. */
  reset(): Promise<void>;
  /** Stops the hourly session sweep and waits for the last write. */
  close(): Promise<void>;
}

/** How often sessions unseen for two weeks are swept out, besides at start-up. */
const SWEEP_EVERY_MS = 3600 * 1000;

export function resolveDataFile(dataFile?: string): string {
  return resolve(dataFile ?? process.env.STUB_DATA_FILE ?? DEFAULT_DATA_FILE);
}

// Answers belong to one visitor's session and change with every basket edit: never cached,
// including injected faults (a cached 500 would outlive its fault).
function apiHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.set({ 'Cache-Control': 'no-store', Vary: 'Cookie, Authorization' });
  next();
}

/** A request body in a format DRF would not parse is 415, not a silently empty body. */
function supportedBody(req: Request, res: Response, next: NextFunction): void {
  const length = req.headers['content-length'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (hasBody && !req.is(['application/json', 'application/x-www-form-urlencoded', '+json'])) {
    res.status(415).json({
      detail: `Неподдерживаемый тип данных "${req.headers['content-type'] ?? ''}" в запросе.`,
    });
    return;
  }
  next();
}

function apiRouter(ctx: StubContext): Router {
  const router = express.Router();
  router.use(apiHeaders, ctx.faults.middleware(), identify(ctx), csrfGuard(ctx), supportedBody);
  router.use(jsonServer.bodyParser);
  router.use(
    catalogRoutes(ctx),
    basketRoutes(ctx),
    orderRoutes(ctx),
    contentRoutes(ctx),
    authRoutes(ctx),
  );
  router.use(apiNotFound);
  router.use(apiErrors);
  return router;
}

/**
 * The stub app on its data file. A data file it must not use throws DataFileError (db.ts), whose
 * message is the one line to print.
 */
export function createStubApp(options: StubAppOptions = {}): StubApp {
  const store = Store.open(resolveDataFile(options.dataFile), { reset: options.reset === true });
  const ctx: StubContext = {
    store,
    settings: defaultSettings(),
    faults: new FaultRegistry(),
    attempts: new OrderAttempts(),
  };
  const sweep = () => {
    if (expireSessions(store.data, Date.now()) > 0) void store.save();
  };
  sweep();
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.unref();

  const app = jsonServer.create();
  app.disable('x-powered-by');
  app.use('/api', apiRouter(ctx));
  app.use('/media', ctx.faults.middleware(), mediaRouter());
  if (options.controls) app.use('/__control', controlRoutes(ctx));
  // Whatever goes wrong under the stub's own paths (a bad `%` encoding, a file that cannot be
  // sent) is answered here, as short JSON; other paths belong to the host app.
  app.use(['/api', '/media', '/__control'], apiErrors);
  return {
    app,
    reset: () => store.reset(),
    close: async () => {
      clearInterval(sweeper);
      await store.settle();
    },
  };
}
