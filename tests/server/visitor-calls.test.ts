// The server's calls on a visitor's behalf (issue 19): each request's calls carry that visitor's
// cookies and token, however requests overlap, and what the backend sets for them comes back.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBasket, updateBasketAmount } from '../../src/api/basket';
import { configureApi } from '../../src/api/http';
import { asVisitor, type Visitor } from '../../src/server/visitor-calls';

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
      res.end(req.method === 'PUT' ? '{"product":{"id":7},"amount":1}' : '{}');
    }, delay);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  configureApi({ baseURL: `http://127.0.0.1:${port}/api` });
});

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
      asVisitor(visitor({ sessionid: 'slow', jwt: 'token-a' }), async () => {
        await getBasket();
        await getBasket();
      }),
      asVisitor(visitor({ sessionid: 'fast' }), async () => {
        await getBasket();
        await getBasket();
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
    const { setCookies } = await asVisitor(visitor({ theme: 'dark' }), async () => {
      await getBasket();
      await updateBasketAmount(7, 1);
    });
    const put = seen[1];
    expect(put?.cookie).toBe('theme=dark; sessionid=new-session; csrftoken=new-token');
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
      async () => {
        await getBasket().catch(() => {});
        await getBasket();
      },
    );
    expect(seen[0]?.authorization).toBe('Token revoked');
    expect(seen[1]?.authorization).toBeUndefined();
    expect(setCookies).toEqual(['jwt=; Max-Age=0; Path=/; SameSite=Lax']);
  });
});
