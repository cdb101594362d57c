// Requests Node refuses before express sees them (host/process/security.ts answerClientError, which
// host/app.ts hands the http server): the shop's headers and a Russian line, not a bare status.
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError } from '../../host/process/security.ts';
import { listen, type Listening } from './http-helpers.ts';

let shop: Listening;

beforeAll(async () => {
  shop = await listen((_req, res) => res.end('ok'));
  shop.server.on('clientError', answerClientError);
});

afterAll(() => shop.close());

/** Sends `raw` as it is and reads the answer until the server closes the connection. */
async function send(raw: string): Promise<{ status: number; headers: string; body: string }> {
  const socket = connect(Number(new URL(shop.url).port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  socket.write(raw);
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), headers: head, body };
}

describe("Node's own refusals", () => {
  it.each([
    ['a URL over 16 KB', `GET /${'a'.repeat(17_000)} HTTP/1.1\r\nHost: shop\r\n\r\n`, 431],
    [
      'headers over 16 KB',
      `GET / HTTP/1.1\r\nHost: shop\r\nX-A: ${'a'.repeat(17_000)}\r\n\r\n`,
      431,
    ],
    ['a bad request line', 'NOT HTTP AT ALL\r\n\r\n', 400],
    ['a header without a colon', 'GET / HTTP/1.1\r\nHost shop\r\n\r\n', 400],
  ])("%s: %#, with the shop's headers", async (_what, raw, status) => {
    const answer = await send(raw);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/^X-Content-Type-Options: nosniff$/m);
    expect(answer.headers).toMatch(/^Referrer-Policy: strict-origin-when-cross-origin$/m);
    expect(answer.headers).toMatch(/^X-Frame-Options: DENY$/m);
    expect(answer.headers).toMatch(
      /^Content-Security-Policy: default-src 'none'; frame-ancestors 'none'$/m,
    );
    expect(answer.headers).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(answer.body).toBe(
      status === 431 ? 'Слишком длинный адрес или заголовки' : 'Неверный запрос',
    );
  });
});

/** Sends `good` and, once its answer is in, `bad` on the same kept-alive connection. */
async function sendAfterAnswer(good: string, bad: string): Promise<string> {
  const socket = connect(Number(new URL(shop.url).port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('error', () => {});
  socket.write(good);
  // The first answer is whole once its body `ok` is in.
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).toString('utf8').endsWith('\r\n\r\nok')) resolve();
    });
  });
  chunks.length = 0;
  socket.write(bad);
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('utf8');
}

describe('a refused request on a kept-alive connection (as nginx keeps them)', () => {
  const good = 'GET / HTTP/1.1\r\nHost: shop\r\n\r\n';
  it.each([
    [
      'a control byte in a header value',
      `GET / HTTP/1.1\r\nHost: shop\r\nX-A: a\u0001b\r\n\r\n`,
      400,
    ],
    ['a DEL in the Cookie header', `GET / HTTP/1.1\r\nHost: shop\r\nCookie: a=\u007f\r\n\r\n`, 400],
    [
      'three 7 KB headers',
      `GET / HTTP/1.1\r\nHost: shop\r\n${[1, 2, 3].map((n) => `X-${n}: ${'a'.repeat(7000)}\r\n`).join('')}\r\n`,
      431,
    ],
  ])(
    '%s: its answer with the shop’s headers, after an answer went out',
    async (_what, bad, status) => {
      const answer = await sendAfterAnswer(good, bad);
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(answer).toMatch(/^X-Content-Type-Options: nosniff$/m);
      expect(answer).toMatch(/^Connection: close$/m);
    },
  );
});
