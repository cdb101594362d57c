// One Node http server: the stub app, then (with staticDir) the production build with an SPA
// fallback. Used by serve.ts (npm start / npm run stub), the e2e set-up and the stub tests.
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createStubApp } from './app.ts';

export interface ServerOptions {
  /** 0 picks a free port; default 3000. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  dataFile?: string;
  controls?: boolean;
  /** The production build (dist/) to serve beside the stub; null or missing: the stub only. */
  staticDir?: string | null;
  reset?: boolean;
}

export interface RunningServer {
  /** `http://127.0.0.1:3000/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

const YEAR_SECONDS = 31_536_000;

/** Encodings the browser takes (`Accept-Encoding`), leaving out those it refuses with q=0. */
function acceptedEncodings(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function productionBuild(staticDir: string): express.Router {
  const root = resolve(staticDir);
  const indexFile = join(root, 'index.html');
  const router = express.Router();
  const cacheControl = (file: string) =>
    file.startsWith(join(root, 'assets') + sep)
      ? `public, max-age=${YEAR_SECONDS}, immutable`
      : 'no-cache';

  /**
   * Sends the build's brotli or gzip copy of `file` (written by vite.config.ts at build time)
   * when there is one and the browser takes it; returns false to let the plain file go out.
   */
  const sendCompressed = (req: Request, res: Response, file: string): boolean => {
    const accepted = acceptedEncodings(String(req.headers['accept-encoding'] ?? ''));
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (!isFile(file + suffix)) continue;
      res.vary('Accept-Encoding');
      if (!accepted.has(encoding)) continue;
      res.type(extname(file));
      res.sendFile(file + suffix, {
        headers: { 'Content-Encoding': encoding, 'Cache-Control': cacheControl(file) },
      });
      return true;
    }
    return false;
  };

  router.use((req: Request, res: Response, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    let file: string;
    try {
      file = resolve(root, `.${decodeURIComponent(req.path)}`);
    } catch {
      next();
      return;
    }
    if (!file.startsWith(root + sep) || !isFile(file) || !sendCompressed(req, res, file)) next();
  });
  router.use(
    express.static(root, {
      index: false,
      setHeaders: (res, filePath) => {
        res.setHeader('Cache-Control', cacheControl(filePath));
      },
    }),
  );
  // Any other page the browser asks for is a client-side route: index.html, never cached.
  router.get('*', (req: Request, res: Response, next) => {
    // Content negotiation as Express does it: `*/*` (curl, link checkers) accepts HTML too, while
    // a JSON-only client and a missing file (a path with an extension) still get 404.
    const wantsHtml = req.accepts(['html', 'json']) === 'html';
    const isFile = /\.[a-z0-9]+$/i.test(req.path);
    if (!wantsHtml || isFile || req.path.startsWith('/assets/') || !existsSync(indexFile)) {
      next();
      return;
    }
    if (!sendCompressed(req, res, indexFile)) {
      res.sendFile(indexFile, { headers: { 'Cache-Control': 'no-cache' } });
    }
  });
  return router;
}

const ERROR_TEXTS: Record<number, string> = {
  400: 'Некорректный запрос',
  403: 'Доступ запрещён',
  404: 'Не найдено',
};

/**
 * The last error handler: whatever failed outside the stub (a path with a bad `%` encoding under
 * the build's files, say) is a short plain-text page, never Express's page with a stack trace and
 * file paths; those go to the server's log.
 */
export function serverErrors(
  error: unknown,
  _req: Request,
  res: Response,
  next: NextFunction,
): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const status = (error as { status?: unknown } | null)?.status;
  const known = typeof status === 'number' && status >= 400 && status < 500;
  if (!known) console.error('[server] unexpected error', error);
  const code = known ? status : 500;
  res
    .status(code)
    .type('text/plain; charset=utf-8')
    .send(ERROR_TEXTS[code] ?? (known ? 'Некорректный запрос' : 'Внутренняя ошибка сервера'));
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const stub = createStubApp({
    dataFile: options.dataFile,
    controls: options.controls === true,
    reset: options.reset === true,
  });
  const app = express();
  app.disable('x-powered-by');
  // API answers and media (SVG) gzip- or brotli-compressed on the fly when larger than 1 KB: the
  // home page's pictures shrink from about 150 KB to 50 KB (Lighthouse mobile LCP on / 3.7-4.5 s
  // -> 3.3 s). The build's own files have copies compressed ahead (productionBuild).
  app.use(['/api', '/media'], compression());
  app.use(stub.app);
  if (options.staticDir) app.use(productionBuild(options.staticDir));
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain; charset=utf-8').send('Не найдено');
  });
  app.use(serverErrors);

  const server = createServer(app);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}/`,
    port,
    close: () => {
      closing ??= new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }).then(() => stub.close());
      return closing;
    },
  };
}
