import { afterEach, describe, expect, it, vi } from 'vitest';
import { pathMatches } from '../../stub-server/faults.ts';
import { control, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile();
afterEach(async () => {
  await control(server.url, 'DELETE', '/faults');
});

/** How many requests each configured fault has taken so far. */
async function faultHits(): Promise<number[]> {
  const { body } = await control(server.url, 'GET', '/faults');
  return (body as { hits: number }[]).map((fault) => fault.hits);
}

/** One full request to the stub: whatever it had ready to send has been sent by then. */
async function roundTrip(): Promise<void> {
  expect((await control(server.url, 'GET', '/faults')).status).toBe(200);
}

describe('faults', () => {
  it('path prefixes match whole segments', () => {
    expect(pathMatches('/api/catalog/basket', '/api/catalog/basket')).toBe(true);
    expect(pathMatches('/api/catalog/basket', '/api/catalog/basket/7')).toBe(true);
    expect(pathMatches('/api/catalog/basket/', '/api/catalog/basket')).toBe(true);
    expect(pathMatches('/api/catalog/basket', '/api/catalog/basket_x')).toBe(false);
    expect(pathMatches('/api/catalog/basket', '/api/catalog')).toBe(false);
  });

  it('a configured 500 takes effect on matching requests only, and is cleared', async () => {
    const visitor = await new Visitor(server.url).start();
    const added = await control(server.url, 'POST', '/faults', {
      path: '/api/catalog/basket',
      method: 'put',
      status: 500,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: expect.any(Number), status: 500, method: 'PUT' });
    const failed = await visitor.put('/api/catalog/basket/7', { amount: 1 });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ detail: 'Тестовый сбой: ответ 500.' });
    // A cached fault would outlive its removal.
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect((await visitor.get('/api/catalog/basket')).status).toBe(200); // GET is not matched
    expect((await visitor.get('/api/catalog/product')).status).toBe(200);
    expect((await control(server.url, 'GET', '/faults')).body).toHaveLength(1);
    expect((await control(server.url, 'DELETE', '/faults')).status).toBe(204);
    expect((await visitor.put('/api/catalog/basket/7', { amount: 1 })).status).toBe(200);
  });

  it('a delay holds the answer for exactly delay_ms, and is cleared', async () => {
    const visitor = await new Visitor(server.url).start();
    await control(server.url, 'POST', '/faults', {
      path: '/api/catalog/total_price',
      delay_ms: 400,
    });
    // The stub runs in this process: with its timers fake, the delay passes only when the test
    // says so, and the answer's arrival is observed instead of measured.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const slow = visitor.get('/api/catalog/total_price').finally(() => {
        answered = true;
      });
      // The fault has taken the request once its hit is on record.
      await expect.poll(faultHits, { interval: 0 }).toEqual([1]);
      await vi.advanceTimersByTimeAsync(399);
      await roundTrip();
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await slow).toMatchObject({ status: 200, body: 0 });

      await control(server.url, 'DELETE', '/faults');
      // Time stands still now: only an answer that waits for nothing can arrive.
      expect(await visitor.get('/api/catalog/total_price')).toMatchObject({ status: 200 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('times limits a fault; a custom body is answered as is', async () => {
    const visitor = await new Visitor(server.url).start();
    await control(server.url, 'POST', '/faults', {
      path: '/api/catalog/product_retrieve',
      status: 503,
      body: { detail: 'Сервис недоступен.' },
      times: 2,
    });
    const first = await visitor.get('/api/catalog/product_retrieve/7');
    expect(first).toMatchObject({ status: 503, body: { detail: 'Сервис недоступен.' } });
    expect((await visitor.get('/api/catalog/product_retrieve/8')).status).toBe(503);
    expect((await visitor.get('/api/catalog/product_retrieve/7')).status).toBe(200);
    expect((await control(server.url, 'GET', '/faults')).body).toEqual([]);
  });

  it('a network error destroys the connection', async () => {
    await control(server.url, 'POST', '/faults', {
      path: '/api/telegram/news',
      network_error: true,
      times: 1,
    });
    await expect(fetch(new URL('/api/telegram/news', server.url))).rejects.toThrow();
    expect((await fetch(new URL('/api/telegram/news', server.url))).status).toBe(200);
  });

  it('one fault can be removed by id; bad fault specs answer 400', async () => {
    const added = await control(server.url, 'POST', '/faults', {
      path: '/api/content',
      status: 500,
    });
    const { id } = added.body as { id: number };
    expect((await control(server.url, 'DELETE', `/faults/${id}`)).status).toBe(204);
    expect((await control(server.url, 'DELETE', `/faults/${id}`)).status).toBe(404);
    expect(
      (await control(server.url, 'POST', '/faults', { path: '/elsewhere', status: 500 })).status,
    ).toBe(400);
    expect((await control(server.url, 'POST', '/faults', { path: '/api/content' })).status).toBe(
      400,
    );
    expect(
      (await control(server.url, 'POST', '/faults', { path: '/api', status: 42 })).status,
    ).toBe(400);
  });
});
