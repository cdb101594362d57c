// The server's calls for one request (src/server-entry/backend-calls.ts): they carry that visitor's
// cookies and token however requests overlap, what the backend sets for them comes back, and no
// call outlives its deadline or its request.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBasket, updateBasketAmount } from '../../src/api/basket';
import { isShoppersOwnCall } from '../../src/api/http';
import { getHomeProducts, searchProducts } from '../../src/api/catalog';
import { backendAgent } from '../../host/backend-agent';
import {
  type Backend,
  type BackendCalls,
  backendCalls,
  parseCookies,
  UnexpectedAnswerError,
  type Visitor,
} from '../../src/server-entry/backend-calls';
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
