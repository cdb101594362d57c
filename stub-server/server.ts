// One Node http server: the stub app, then (with staticDir) the production build with an SPA
// fallback. Used by serve.ts (npm start / npm run stub), the e2e set-up and the stub tests.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import express, { type Request, type Response } from 'express';
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

function productionBuild(staticDir: string): express.Router {
  const root = resolve(staticDir);
  const indexFile = join(root, 'index.html');
  const router = express.Router();
  router.use(
    express.static(root, {
      index: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.startsWith(join(root, 'assets'));
        res.setHeader(
          'Cache-Control',
          hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache',
        );
      },
    }),
  );
  // Any other page the browser asks for is a client-side route: index.html, never cached.
  router.get('*', (req: Request, res: Response, next) => {
    const wantsHtml = (req.headers.accept ?? '').includes('text/html');
    if (!wantsHtml || req.path.startsWith('/assets/') || !existsSync(indexFile)) {
      next();
      return;
    }
    res.sendFile(indexFile, { headers: { 'Cache-Control': 'no-cache' } });
  });
  return router;
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
  app.use(stub.app);
  if (options.staticDir) app.use(productionBuild(options.staticDir));
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain; charset=utf-8').send('Не найдено');
  });

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
      });
      return closing;
    },
  };
}
