// Real HTTP for the server's tests: stand-in servers on free ports, and requests whose path goes
// out exactly as written (fetch would normalise `/media/../admin` before sending it).
import { once } from 'node:events';
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** `handler` on 127.0.0.1 at a free port. */
export async function listen(handler: RequestListener): Promise<Listening> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** GET `path` from `base` as sent, on a connection of its own. */
export function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const outgoing = request({ hostname, port, path, headers, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
