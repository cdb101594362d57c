// The server's calls for one request (src/server-entry/backend-calls.ts): they carry that visitor's
// cookies and token however requests overlap, what the backend sets for them comes back, and no
// call outlives its deadline or its request.
import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getBasket, updateBasketAmount } from '../../src/api/basket';
import { callOutcome, failureCase } from '../../src/api/call-failure';
import { isShoppersOwnCall } from '../../src/api/http';
import { getHomeProducts, searchProducts } from '../../src/api/catalog';
import { backendAgent } from '../../host/backend/backend-agent.ts';
import {
  type Backend,
  type BackendCalls,
  backendCalls,
  parseCookies,
  UnexpectedAnswerError,
  type Visitor,
} from '../../src/server-entry/backend-calls';
import type { FailedCall } from '../../src/server-entry/server-log';
import { json, raspberry } from './fake-replies';
import { asHeader, STRAY_COOKIES } from './stray-cookies';

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const TEXT = { 'content-type': 'text/plain' };

let server: Server;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const cookie = req.headers.cookie ?? '';
    if (req.headers.authorization === 'Token revoked') {
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end('{"detail":"Недопустимый токен."}');
      return;
    }
    if (!cookie.includes('sessionid=')) {
      // A newcomer: a session, a CSRF token, and a cookie the backend takes back at once.
      res.setHeader('Set-Cookie', [
        'sessionid=new-session; Path=/; HttpOnly',
        'csrftoken=new-token; Path=/',
        'messages=""; Max-Age=0; Path=/',
      ]);
    }
    // Answers arrive out of order: a visitor's later call must still be theirs.
    const delay = cookie.includes('sessionid=slow') ? 40 : 0;
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(req.method === 'PUT' ? JSON.stringify({ product: raspberry, amount: 1 }) : '{}');
    }, delay);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  backend = { baseURL: `http://127.0.0.1:${port}/api`, fetch };
});

let backend: Backend;

/** Runs `work` with one request's calls as `who`, as the server does, and ends them after. */
async function asVisitor(who: Visitor, work: (calls: BackendCalls) => Promise<void>) {
  const calls = backendCalls(backend, who, 60_000);
  try {
    await work(calls);
  } finally {
    calls.end();
  }
  return { setCookies: calls.setCookies(), cookies: calls.cookies() };
}

afterAll(() => {
  server.close();
});

const visitor = (cookies: Record<string, string>): Visitor => ({
  cookies,
  forwardedFor: '203.0.113.7',
  proto: 'https',
  host: 'shop.example',
});

describe("the server's calls for a visitor", () => {
  it('carry their cookies, token and address, never another visitor’s, however they overlap', async () => {
    seen.length = 0;
    await Promise.all([
      asVisitor(visitor({ sessionid: 'slow', jwt: 'token-a' }), async ({ api }) => {
        await getBasket(api);
        await getBasket(api);
      }),
      asVisitor(visitor({ sessionid: 'fast' }), async ({ api }) => {
        await getBasket(api);
        await getBasket(api);
      }),
    ]);
    const slow = seen.filter((headers) => headers.cookie?.includes('sessionid=slow'));
    const fast = seen.filter((headers) => headers.cookie?.includes('sessionid=fast'));
    expect(slow).toHaveLength(2);
    expect(fast).toHaveLength(2);
    for (const headers of slow) expect(headers.authorization).toBe('Token token-a');
    for (const headers of fast) expect(headers.authorization).toBeUndefined();
    expect(seen[0]).toMatchObject({
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'shop.example',
      referer: 'https://shop.example/',
    });
  });

  it("a newcomer's next call carries the session and CSRF token the backend just set, and the visitor gets them", async () => {
    seen.length = 0;
    const { setCookies } = await asVisitor(visitor({ theme: 'dark' }), async ({ api }) => {
      await getBasket(api);
      await updateBasketAmount(7, 1, api);
    });
    const put = seen[1];
    // The shop's theme is none of the backend's business: only its own cookies go.
    expect(put?.cookie).toBe('sessionid=new-session; csrftoken=new-token');
    expect(put?.['x-csrftoken']).toBe('new-token');
    expect(setCookies).toEqual([
      'sessionid=new-session; Path=/; HttpOnly',
      'csrftoken=new-token; Path=/',
      'messages=""; Max-Age=0; Path=/',
    ]);
  });

  it('a token the backend refuses is dropped: the next calls go without it, and the browser forgets it', async () => {
    seen.length = 0;
    const { setCookies } = await asVisitor(
      visitor({ sessionid: 'fast', jwt: 'revoked' }),
      async ({ api }) => {
        await getBasket(api).catch(() => {});
        await getBasket(api);
      },
    );
    expect(seen[0]?.authorization).toBe('Token revoked');
    expect(seen[1]?.authorization).toBeUndefined();
    // Written as every writer of the shop's cookies writes it: Secure, the visitor being on https.
    expect(setCookies).toEqual(['jwt=; Max-Age=0; Path=/; Secure; SameSite=Lax']);
  });
});

describe("a visitor's stray cookies", () => {
  it('never reach the backend, and fail no call: its own cookies go as they were sent', async () => {
    seen.length = 0;
    const header = `${STRAY_COOKIES}; sessionid=fast; csrftoken=tok; jwt=token-a; theme=dark`;
    await asVisitor(visitor(parseCookies(header)), async ({ api }) => {
      await getBasket(api);
      await updateBasketAmount(7, 1, api);
    });
    expect(seen).toHaveLength(2);
    for (const headers of seen) {
      expect(headers.cookie).toBe('sessionid=fast; csrftoken=tok; jwt=token-a');
      expect(headers.authorization).toBe('Token token-a');
    }
    expect(seen[1]?.['x-csrftoken']).toBe('tok');
  });

  it("the backend's own cookies go byte for byte; one that cannot go in a header is left out, never thrown on", async () => {
    seen.length = 0;
    // A session of non-ASCII bytes; a token whose %-escapes decode to a line break; a CSRF
    // token with a space, which may go in the Cookie header but not as a header of its own.
    const header = `sessionid=${asHeader('сессия')}; jwt=%0D%0Aevil; csrftoken=a b`;
    await asVisitor(visitor(parseCookies(header)), async ({ api }) => {
      await getBasket(api);
      await updateBasketAmount(7, 1, api);
    });
    expect(seen).toHaveLength(2);
    const sent = Buffer.from(seen[0]?.cookie ?? '', 'latin1');
    expect(sent.equals(Buffer.from('sessionid=сессия; csrftoken=a b; jwt=%0D%0Aevil'))).toBe(true);
    expect(seen[0]?.authorization).toBeUndefined();
    expect(seen[1]?.['x-csrftoken']).toBeUndefined();
  });
});

describe('answers the calls do not expect', () => {
  /** A newcomer's calls to a backend that answers every call with `reply`. */
  const callsAnswered = (reply: () => Response) =>
    backendCalls(
      { baseURL: 'http://backend.test/api', fetch: () => Promise.resolve(reply()) },
      visitor({}),
      60_000,
    );
  const products = [raspberry];

  it.each([
    ['HTML with a 200', () => new Response('<h1>Скоро вернёмся</h1>', { headers: HTML })],
    ['JSON of another shape', () => json(200, { count: 1, results: products })],
    ['a product without its price', () => json(200, [{ ...raspberry, price: undefined }])],
    ['JSON sent as text', () => new Response(JSON.stringify(products), { headers: TEXT })],
  ])('%s fails the call', async (_, reply) => {
    const calls = callsAnswered(reply);
    await expect(getHomeProducts(calls.api)).rejects.toBeInstanceOf(UnexpectedAnswerError);
    calls.end();
  });

  it('an answer of its shape passes as it came', async () => {
    const sent = [{ ...raspberry, section: 3 }];
    const calls = callsAnswered(() => json(200, sent));
    expect(await getHomeProducts(calls.api)).toEqual(sent);
    calls.end();
  });
});

describe('a failed call: its outcome, its case, and a line for the operator', () => {
  /** The operator's log of the calls made with it (the host writes it with pino). */
  function operatorLog() {
    const lines: FailedCall[] = [];
    return { lines, log: { callFailed: (failed: FailedCall) => lines.push(failed) } };
  }

  /** A request's visitor, with its id (the operator's line carries it). */
  const asked = (cookies: Record<string, string> = {}): Visitor => ({
    ...visitor(cookies),
    requestId: 'req-43',
  });

  /** A backend answering GET /api/catalog/basket with `reply`, through the bounded agent. */
  async function failedCall(
    reply: (res: ServerResponse) => void,
    options: { maxAnswerBytes?: number; budgetMs?: number } = {},
  ) {
    const real = createServer((_req, res) => reply(res));
    real.listen(0, '127.0.0.1');
    await once(real, 'listening');
    const { port } = real.address() as AddressInfo;
    const failure = await callThrough(`http://127.0.0.1:${port}/api`, options);
    real.closeAllConnections();
    real.close();
    return failure;
  }

  /** GET catalog/basket through the bounded agent to `baseURL`: what it failed with, and the log. */
  async function callThrough(
    baseURL: string,
    { maxAnswerBytes, budgetMs = 60_000 }: { maxAnswerBytes?: number; budgetMs?: number } = {},
  ) {
    const agent = backendAgent(4, maxAnswerBytes);
    const { lines, log } = operatorLog();
    try {
      const calls = backendCalls({ baseURL, fetch: agent.callFetch, log }, asked(), budgetMs);
      const error: unknown = await getBasket(calls.api).catch((caught: unknown) => caught);
      calls.end();
      return { outcome: callOutcome(error), failure: failureCase(error), log: lines };
    } finally {
      await agent.close();
    }
  }

  const send =
    (status: number, body: string, type = 'application/json') =>
    (res: ServerResponse) =>
      res.writeHead(status, { 'content-type': type }).end(body);

  it.each([
    ['an error of its own (500)', send(500, '{"detail": "boom"}'), '5xx', 'error', 'HTTP 500'],
    ['a 401 the shop did not expect', send(401, '{"detail": "нет"}'), '4xx', 'error', 'HTTP 401'],
    [
      "its gateway's page for a backend it could not reach (502, HTML)",
      send(502, '<h1>502 Bad Gateway</h1>', 'text/html'),
      'refused',
      'unreachable',
      'HTTP 502',
    ],
    [
      'JSON of another shape',
      send(200, '{"count": 0, "results": []}'),
      'bad_shape',
      'unreadable',
      "the backend's answer to GET /catalog/basket is not of its shape",
    ],
    [
      'HTML where JSON was expected',
      send(200, '<h1>Скоро вернёмся</h1>', 'text/html'),
      'bad_shape',
      'unreadable',
      "the backend's answer to GET /catalog/basket is text/html, not JSON",
    ],
    [
      'a redirect',
      (res: ServerResponse) => res.writeHead(302, { location: '/login/' }).end(),
      'redirect',
      'unreadable',
      'the backend answered 302 to /login/',
    ],
  ])('%s', async (_what, reply, outcome, failure, detail) => {
    const result = await failedCall(reply);
    expect(result).toMatchObject({ outcome, failure });
    expect(result.log).toEqual([
      {
        id: 'req-43',
        case: failure,
        outcome,
        call: 'GET /api/catalog/basket',
        why: expect.stringContaining(detail),
      },
    ]);
  });

  it('an answer over the cap', async () => {
    const result = await failedCall(send(200, JSON.stringify({ big: 'x'.repeat(5000) })), {
      maxAnswerBytes: 1000,
    });
    expect(result).toMatchObject({ outcome: 'too_big', failure: 'unreadable' });
    expect(result.log).toMatchObject([
      { case: 'unreadable', outcome: 'too_big', call: 'GET /api/catalog/basket' },
    ]);
  });

  it('a backend that is down, and one that does not answer in time', async () => {
    const down = await callThrough(`http://127.0.0.1:${await freePort()}/api`);
    expect(down).toMatchObject({ outcome: 'refused', failure: 'unreachable' });
    expect(down.log).toMatchObject([
      { case: 'unreachable', outcome: 'refused', call: 'GET /api/catalog/basket' },
    ]);
    await inFrontOfBlackHole({ budgetMs: 300, maxSockets: 4 }, async (calls) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const error: unknown = await getBasket(calls.api).catch((caught: unknown) => caught);
      expect(callOutcome(error)).toBe('timeout');
      expect(failureCase(error)).toBe('unreachable');
      // Without a host's log, the console has the line.
      expect(warn.mock.calls.map((args) => args.join(' '))).toEqual([
        'backend call failed: unreachable (timeout): GET /api/catalog/basket: the backend did not answer within the budget',
      ]);
      warn.mockRestore();
    });
  });

  it.each([
    ['a product that does not exist (404)', 404, {}],
    ['a refused input (400)', 400, {}],
    ['an order still being placed (409)', 409, {}],
    ['a token the backend no longer knows (401, then dropped)', 401, { jwt: 'revoked' }],
  ])('%s is a refusal the shop expects: no line in the log', async (_what, status, cookies) => {
    const { lines, log } = operatorLog();
    const calls = backendCalls(
      {
        baseURL: 'http://backend.test/api',
        fetch: () => Promise.resolve(json(status, { detail: 'нет' })),
        log,
      },
      asked(cookies),
      60_000,
    );
    await expect(getBasket(calls.api)).rejects.toThrow();
    calls.end();
    expect(lines).toEqual([]);
  });

  it('a call the shop ended itself (its request was answered) is no failure of the backend', async () => {
    await inFrontOfBlackHole({ budgetMs: 60_000, maxSockets: 4 }, async (calls, hole) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const pending = getBasket(calls.api).catch((caught: unknown) => caught);
      await expect.poll(() => hole.waiting()).toBe(1);
      calls.end();
      await pending;
      expect(warn).not.toHaveBeenCalled();
      warn.mockRestore();
    });
  });
});

/** A port where nothing listens now. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A backend that accepts connections and never answers. It counts the sockets that carry a
 * request and are still open (an agent may also open a spare connection, idle until its
 * keep-alive timeout, that holds no call).
 */
async function blackHole() {
  const sockets = new Set<Socket>();
  const asked = new Set<Socket>();
  const hole = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => asked.add(socket));
    socket.on('close', () => {
      sockets.delete(socket);
      asked.delete(socket);
    });
  });
  hole.listen(0, '127.0.0.1');
  await once(hole, 'listening');
  const { port } = hole.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/api`,
    /** Calls waiting for an answer now. */
    waiting: () => asked.size,
    /** Resolves once every socket that carried a call has been closed by the shop's side. */
    allClosed: () => expect.poll(() => asked.size).toBe(0),
    close: () => {
      for (const socket of sockets) socket.destroy();
      hole.close();
    },
  };
}

/**
 * Runs `test` with one request's calls (as a newcomer, within `budgetMs`) to a black hole through
 * an agent of `maxSockets`, and frees both after, whatever happened.
 */
async function inFrontOfBlackHole(
  { budgetMs, maxSockets }: { budgetMs: number; maxSockets: number },
  test: (calls: BackendCalls, hole: Awaited<ReturnType<typeof blackHole>>) => Promise<void>,
) {
  const hole = await blackHole();
  const agent = backendAgent(maxSockets);
  try {
    await test(
      backendCalls({ baseURL: hole.baseURL, fetch: agent.fetch }, visitor({}), budgetMs),
      hole,
    );
  } finally {
    hole.close();
    await agent.close();
  }
}

describe('deadlines and the bounded agent', () => {
  it('a call to a backend that never answers fails at the deadline, as timed out, and its socket closes', async () => {
    await inFrontOfBlackHole({ budgetMs: 300, maxSockets: 4 }, async (calls, hole) => {
      const error: unknown = await getBasket(calls.api).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(calls.timedOut()).toBe(true);
      expect(calls.signal.aborted).toBe(true);
      await hole.allClosed();
      calls.end();
    });
  });

  it('a call that brings a signal of its own (the browser’s search) still ends at the deadline', async () => {
    await inFrontOfBlackHole({ budgetMs: 300, maxSockets: 4 }, async (calls, hole) => {
      const error: unknown = await searchProducts('малина', undefined, calls.api).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Error);
      expect(calls.timedOut()).toBe(true);
      await hole.allClosed();
    });
  });

  it('end() stops the calls still under way: nothing outlives its request', async () => {
    await inFrontOfBlackHole({ budgetMs: 60_000, maxSockets: 4 }, async (calls, hole) => {
      const pending = getBasket(calls.api).catch((caught: unknown) => caught);
      await expect.poll(() => hole.waiting()).toBe(1);
      calls.end();
      expect(await pending).toBeInstanceOf(Error);
      // Ended, not timed out: the request was answered; the form's message is not «too late».
      expect(calls.timedOut()).toBe(false);
      await hole.allClosed();
    });
  });

  it('past the cap of sockets a call fails at once instead of queueing behind calls that hang', async () => {
    // Four visitors at four addresses, each with a call that hangs: the agent's four sockets.
    const hole = await blackHole();
    const agent = backendAgent(4, undefined, isShoppersOwnCall);
    const at = (address: string) =>
      backendCalls(
        { baseURL: hole.baseURL, fetch: agent.callFetch },
        { ...visitor({}), forwardedFor: address },
        60_000,
      );
    const visitors = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map(at);
    try {
      const hanging = visitors.map((calls) => getBasket(calls.api).catch(() => null));
      await expect.poll(() => hole.waiting()).toBe(4);
      const fifth = at('203.0.113.5');
      const refused = await getBasket(fifth.api).catch((caught: unknown) => caught);
      expect(String((refused as Error).cause ?? refused)).toMatch(/all 4 connections/);
      expect(hole.waiting()).toBe(4);
      for (const calls of [...visitors, fifth]) calls.end();
      await Promise.all(hanging);
      await hole.allClosed();
    } finally {
      hole.close();
      await agent.close();
    }
  });
});
