// The stub alone in one Node http server: serve.ts (npm run stub), the pact verifier, the nginx
// test's backend and the stub tests. The shop's server (host/app.ts) mounts the stub app itself.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import express, { type Request, type Response } from 'express';
import { createStubApp } from './app.ts';
import { serverErrors } from '../host/process/server-errors.ts';

export interface ServerOptions {
  /** 0 picks a free port; default 3000. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  dataFile?: string;
  controls?: boolean;
  reset?: boolean;
}

export interface RunningServer {
  /** `http://127.0.0.1:3000/` */
  url: string;
  port: number;
  close(): Promise<void>;
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
  // -> 3.3 s).
  app.use(['/api', '/media'], compression());
  app.use(stub.app);
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
