// Backends that misbehave the way real ones do, for the fault bench (bench/faults.ts) and the e2e
// tests of the shop in front of them: one that accepts and never answers, a port where nothing
// listens, one that answers late, one that dies mid-run, and one that answers every request with
// Django's error page. Each listens on 127.0.0.1 on a free port, and its close() frees everything
// it holds (sockets, timers, the working stub's temporary data).
import { once } from 'node:events';
import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../../stub-server/server.ts';

const HOST = '127.0.0.1';

export interface FaultBackend {
  /** `http://127.0.0.1:PORT`, without a trailing slash: what API_TARGET takes. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface DyingBackend extends FaultBackend {
  /** Stops it for good: the connections it holds are cut, and new ones are refused. */
  kill(): Promise<void>;
  readonly killed: boolean;
  /** From now on it takes every request and never answers (its workers all stuck). */
  stall(): void;
  /** Requests it is holding unanswered now, their connections still open. */
  held(): number;
}

async function listen(server: Server | NetServer): Promise<number> {
  server.listen(0, HOST);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

const closed = (server: Server | NetServer) =>
  new Promise<void>((resolve) => {
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });

/** An HTTP server whose close() also cuts the connections it holds (keep-alive, or answering). */
export async function httpBackend(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  onClose: () => void = () => {},
): Promise<FaultBackend & { server: Server }> {
  const server = createServer(handler);
  const port = await listen(server);
  return {
    server,
    url: `http://${HOST}:${port}`,
    port,
    close: async () => {
      onClose();
      const done = closed(server);
      server.closeAllConnections();
      await done;
    },
  };
}

/** A free port on 127.0.0.1 right now: bound, then let go. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  const port = await listen(server);
  await closed(server);
  return port;
}

/** Accepts every connection and never answers: a backend whose workers are all stuck. */
export async function blackHole(): Promise<FaultBackend> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // The caller may give up and reset the connection: that is expected here.
    socket.on('error', () => {});
    // What is sent is read and dropped, so that a request's body never blocks its sender.
    socket.resume();
  });
  const port = await listen(server);
  return {
    url: `http://${HOST}:${port}`,
    port,
    close: async () => {
      const done = closed(server);
      for (const socket of sockets) socket.destroy();
      await done;
    },
  };
}

/** A port on which nothing listens: every connection is refused at once. */
export async function closedPort(): Promise<FaultBackend> {
  const port = await freePort();
  return { url: `http://${HOST}:${port}`, port, close: async () => {} };
}

/**
 * Passes a request on to `target` and its answer back, with `more` headers added to it; `hold`
 * decides when the answer goes out. The target is asked under its own name, as the shop's proxy
 * asks a backend.
 */
export function proxyHandler(
  target: string,
  agent: Agent,
  hold: (send: () => void, arrivedAt: number) => void,
  more: Record<string, string | string[]> = {},
) {
  const base = new URL(target);
  return (req: IncomingMessage, res: ServerResponse) => {
    const arrivedAt = performance.now();
    const upstream = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: base.host },
        agent,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          hold(() => {
            if (res.destroyed) return;
            const headers = { ...answer.headers };
            for (const [name, value] of Object.entries(more)) {
              const had = headers[name] ?? [];
              headers[name] = [...[had].flat(), ...[value].flat()];
            }
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(Buffer.concat(chunks));
          }, arrivedAt),
        );
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    // The caller gave up: so does the call behind it.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
}

/**
 * A working backend behind a proxy that holds each answer until `delayMs` after its request
 * arrived. The request itself goes on at once: a change is made, and its answer comes late.
 */
export async function slowBackend(target: string, delayMs = 5000): Promise<FaultBackend> {
  const agent = new Agent({ keepAlive: true });
  const timers = new Set<NodeJS.Timeout>();
  const backend = await httpBackend(
    proxyHandler(target, agent, (send, arrivedAt) => {
      const wait = Math.max(0, arrivedAt + delayMs - performance.now());
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, wait);
      timers.add(timer);
    }),
    () => {
      for (const timer of timers) clearTimeout(timer);
      agent.destroy();
    },
  );
  return { url: backend.url, port: backend.port, close: backend.close };
}

/**
 * A working backend behind a proxy that can stall or be killed mid-run: stalled, it holds every
 * request unanswered; killed, nothing listens.
 */
export async function dyingBackend(target: string): Promise<DyingBackend> {
  const agent = new Agent({ keepAlive: true });
  const pass = proxyHandler(target, agent, (send) => send());
  let stalled = false;
  const held = new Set<ServerResponse>();
  const backend = await httpBackend(
    (req, res) => {
      if (!stalled) return pass(req, res);
      req.resume();
      held.add(res);
      res.on('close', () => held.delete(res));
    },
    () => agent.destroy(),
  );
  let killed = false;
  return {
    url: backend.url,
    port: backend.port,
    get killed() {
      return killed;
    },
    stall: () => {
      stalled = true;
    },
    held: () => held.size,
    kill: async () => {
      killed = true;
      await backend.close();
    },
    close: backend.close,
  };
}

/** Django's own error page for a status, as a production Django (DEBUG off) sends it. */
export function djangoErrorPage(status: number): string {
  const title =
    status >= 500 ? `Server Error (${status})` : `${STATUS_CODES[status] ?? 'Error'} (${status})`;
  return `<!doctype html>\n<html lang="en">\n<head>\n  <title>${title}</title>\n</head>\n<body>\n  <h1>${title}</h1><p></p>\n</body>\n</html>\n`;
}

/** Answers every request with `status` and Django's HTML error page. */
export async function failingBackend(status = 500): Promise<FaultBackend> {
  const page = djangoErrorPage(status);
  const backend = await httpBackend((req, res) => {
    req.resume();
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
    });
    res.end(page);
  });
  return { url: backend.url, port: backend.port, close: backend.close };
}

/**
 * The working backend: the stub alone (no shop in front), seeded afresh on a temporary data file
 * that close() removes once the stub has written its last change.
 */
export async function stubBackend(): Promise<FaultBackend> {
  const dir = await mkdtemp(path.join(tmpdir(), 'berries-fault-stub-'));
  try {
    const stub = await startServer({
      port: 0,
      host: HOST,
      dataFile: path.join(dir, 'db.json'),
      reset: true,
    });
    return {
      url: stub.url.replace(/\/+$/, ''),
      port: stub.port,
      close: async () => {
        await stub.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** How a twisted backend answers the requests it twists (issue 30's odd answers). */
export type Twist =
  /** 200 with an HTML page (a proxy's maintenance page, a login wall). */
  | 'html'
  /** 200 with JSON of another shape (a paginated list where a list was expected). */
  | 'shape'
  /** 307 to the same path on another host (a misconfigured proxy, or an attacker's). */
  | 'redirect'
  /** 200 with a list of products, streamed without a length until `hugeBytes`. */
  | 'huge'
  /** 500 with DRF's JSON error: the backend answers, with an error of its own. */
  | 'error'
  /** The connection cut before any answer: the backend cannot be reached. */
  | 'cut';

export interface TwistedBackend extends FaultBackend {
  /** From now on the requests `which` picks are answered with `twist` (null: all pass again). */
  twist(twist: Twist | null, which?: (req: IncomingMessage) => boolean): void;
  /** Cuts every connection and refuses new ones: an outage after the odd answers. */
  kill(): Promise<void>;
}

/** One product of the stub's shape, as JSON, ending with a comma. */
const HUGE_PIECE = `${JSON.stringify({
  id: 1,
  name: 'Клубника «Виктория»',
  image: '/media/catalog/product-1.svg',
  unit: 'кг',
  unit_step: 0.5,
  price: 690,
  rest: 24,
  available: true,
})},`.repeat(400);

/** Streams a JSON list of products of at least `bytes`, minding the reader's pace. */
function streamHuge(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('[');
  let sent = 0;
  const more = () => {
    while (sent < bytes && !res.destroyed) {
      sent += HUGE_PIECE.length;
      if (!res.write(HUGE_PIECE)) return;
    }
    res.off('drain', more);
    if (!res.destroyed)
      res.end(
        '{"id":2,"name":"","image":null,"unit":"шт","unit_step":null,"price":null,"rest":0,"available":false}]',
      );
  };
  res.on('drain', more);
  more();
}

/**
 * A working backend (the stub at `target`) whose answers can be twisted mid-run; a redirect sends
 * the caller to `elsewhere`, another host.
 */
export async function twistedBackend(
  target: string,
  elsewhere: string,
  hugeBytes = 50 * 1024 * 1024,
): Promise<TwistedBackend> {
  const agent = new Agent({ keepAlive: true });
  const pass = proxyHandler(target, agent, (send) => send());
  let twist: Twist | null = null;
  let which: (req: IncomingMessage) => boolean = () => true;
  const backend = await httpBackend(
    (req, res) => {
      if (!twist || !which(req)) return pass(req, res);
      req.resume();
      if (twist === 'html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Технические работы</title><h1>Скоро вернёмся</h1>');
      } else if (twist === 'shape') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"count":0,"next":null,"results":[]}');
      } else if (twist === 'redirect') {
        res.writeHead(307, { Location: `${elsewhere}${req.url ?? '/'}` }).end();
      } else if (twist === 'error') {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"detail":"Внутренняя ошибка сервера."}');
      } else if (twist === 'cut') {
        res.socket?.destroy();
      } else {
        streamHuge(res, hugeBytes);
      }
    },
    () => agent.destroy(),
  );
  return {
    url: backend.url,
    port: backend.port,
    twist: (next, pick = () => true) => {
      twist = next;
      which = pick;
    },
    kill: () => backend.close(),
    close: backend.close,
  };
}

/** Another host, where a redirect leads: it answers every call with data of its own. */
export async function elsewhereBackend(): Promise<FaultBackend & { asked: string[] }> {
  const asked: string[] = [];
  const backend = await httpBackend((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    req.resume();
    const product = { id: 1, name: 'Чужой товар', image: null, unit: 'шт' };
    const body = req.url?.includes('order_commit')
      ? {
          id: 1,
          created_ts: '2026-11-20T14:05:00+03:00',
          status: 0,
          order_sum: 1,
          items: [{ id: 1, amount: 1, price: 1, product }],
        }
      : [{ ...product, unit_step: null, price: 1, rest: 1, available: true }];
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  return { url: backend.url, port: backend.port, close: backend.close, asked };
}

/**
 * The working backend at `target` with `extra` headers on every answer: what a backend (or a
 * proxy in front of it) could send that no visitor should get.
 */
export async function headersBackend(
  target: string,
  extra: Record<string, string | string[]>,
): Promise<FaultBackend> {
  const agent = new Agent({ keepAlive: true });
  const pass = proxyHandler(target, agent, (send) => send(), extra);
  const backend = await httpBackend(pass, () => agent.destroy());
  return { url: backend.url, port: backend.port, close: backend.close };
}

export interface TricklingBackend extends FaultBackend {
  /** Answers being trickled now, their connections still open. */
  open(): number;
}

/**
 * Answers every request at once with its headers (JSON for /api, a JPEG for anything else) and
 * then one byte a second, never ending: a backend whose answers would hold a reader forever.
 */
export async function tricklingBackend(): Promise<TricklingBackend> {
  const answers = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const backend = await httpBackend(
    (req, res) => {
      req.resume();
      const api = req.url?.startsWith('/api/');
      res.writeHead(200, { 'Content-Type': api ? 'application/json' : 'image/jpeg' });
      res.write(api ? '[' : Buffer.from([0xff, 0xd8, 0xff]));
      answers.add(res);
      const timer = setInterval(() => res.write(api ? ' ' : '\0'), 1000);
      timers.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
        answers.delete(res);
      });
    },
    () => {
      for (const timer of timers) clearInterval(timer);
    },
  );
  return { ...backend, open: () => answers.size };
}

export interface HoldingBackend extends FaultBackend {
  /** Requests held unanswered now, their callers still waiting. */
  held(): number;
}

/**
 * The working backend at `target`, except that the requests `holds` picks are held unanswered
 * until their caller gives up (or close()): a backend whose searches are slow without end, as
 * under a flood of uncached searches.
 */
export async function holdingBackend(
  target: string,
  holds: (req: IncomingMessage) => boolean,
): Promise<HoldingBackend> {
  const agent = new Agent({ keepAlive: true });
  const pass = proxyHandler(target, agent, (send) => send());
  const held = new Set<ServerResponse>();
  const backend = await httpBackend(
    (req, res) => {
      if (!holds(req)) return pass(req, res);
      req.resume();
      held.add(res);
      res.on('close', () => held.delete(res));
    },
    () => agent.destroy(),
  );
  return { url: backend.url, port: backend.port, close: backend.close, held: () => held.size };
}
