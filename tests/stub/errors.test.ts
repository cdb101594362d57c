// Every error answer is short, in Russian, with no stack trace and no file path: the stub's as
// JSON {detail}, the server's as a line of plain text.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiErrors } from '../../stub-server/http.ts';
import { startTestServer, type TestServer, Visitor } from './helpers.ts';

/** Nothing a visitor should see of the server's insides. */
function expectNoInsides(text: string): void {
  expect(text).not.toMatch(/URIError|Error:|\bat .*\(|node_modules|\/work\/|stub-server|<pre>/);
  expect(text.length).toBeLessThan(200);
}

const BAD = '%E0%A4%A';

describe('error answers of the server and the stub', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.dispose());

  const get = (path: string) =>
    fetch(new URL(path, server.url), { headers: { Accept: 'text/html,*/*' } });

  // Pages are the shop's server's (tests/e2e/server-pages.test.ts checks its broken URLs).
  it.each([`/${BAD}`, `/assets/${BAD}`, `/product/${BAD}`])(
    'a path outside the stub with a bad %%-encoding, %s, is a short 404 text',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const text = await response.text();
      expect(text).toBe('Не найдено');
      expectNoInsides(text);
    },
  );

  it.each([
    `/api/${BAD}`,
    `/api/catalog/product_retrieve/${BAD}`,
    `/media/${BAD}`,
    `/media/catalog/${BAD}.svg`,
    `/__control/${BAD}`,
  ])('under the stub, %s is JSON {detail}', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'Не найдено.' });
  });

  describe('request bodies the stub cannot read', () => {
    let visitor: Visitor;
    beforeAll(async () => {
      visitor = await new Visitor(server.url).start();
    });

    it.each([
      [
        'a charset body-parser does not know',
        { 'Content-Type': 'application/json; charset=koi8-r' },
        '{"amount":1}',
        415,
        'Неподдерживаемый тип данных в запросе.',
      ],
      [
        'a content encoding it does not know',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'zzz' },
        '{"amount":1}',
        415,
        'Неподдерживаемый тип данных в запросе.',
      ],
      [
        'a body over the limit',
        { 'Content-Type': 'application/json' },
        `{"amount":${'1'.repeat(11 * 1024 * 1024)}}`,
        413,
        'Запрос слишком большой.',
      ],
    ])('%s: {detail} in Russian', async (_name, headers, rawBody, status, detail) => {
      const answer = await visitor.request('PUT', '/api/catalog/basket/7', { headers, rawBody });
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ detail });
    });

    it('bad JSON to the controls is DRF’s parse error, as under /api', async () => {
      const response = await fetch(new URL('/__control/state', server.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(
        /^JSON parse error - /,
      );
    });
  });
});

describe('apiErrors, the stub’s last error handler', () => {
  it('answers anything thrown as 500 {detail}, the stack going to the log only', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = express();
    app.get('/boom', () => {
      throw new Error('ENOENT: /work/secret/stub-server/data/db.json');
    });
    app.use(apiErrors);
    const http = createServer(app);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = http.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/boom`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ detail: 'Внутренняя ошибка сервера.' });
      expectNoInsides(text);
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      log.mockRestore();
    }
  });
});
