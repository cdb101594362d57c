// A change renews each page it reaches in all 12 variants nginx keeps (host/pages/page-renewal.ts).
// The variants that differ only in theme and encoding share one render on an instance
// (host/pages/render.ts, sharedRenders): the renewal of a page costs 2 renders there, not 12, and
// each variant still carries its own theme.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import { RENEW_HEADER } from '../../host/pages/page-renewal.ts';
import { startServer as startStub } from '../../stub-server/server.ts';

let shop: RunningShop;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-renewal-renders-'));
  shop = await startShopServer({
    port: 0,
    host: '127.0.0.1',
    stub: { dataFile: path.join(dataDir, 'db.json') },
    metrics: { port: 0, host: '127.0.0.1' },
    // However busy the machine, every render has its data: this counts renders, not deadlines.
    dataTimeoutMs: 60_000,
  });
});
afterAll(async () => {
  await shop?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** How many times the instance has rendered /product/:id, from its own metrics. */
async function productRenders(): Promise<number> {
  const text = await (await fetch(shop.metricsUrl!)).text();
  const line = /^shop_page_render_seconds_count\{route="\/product\/[^"]*"\} (\d+)$/m.exec(text);
  return Number(line?.[1] ?? 0);
}

const THEMES = ['light', 'dark'] as const;
const ENCODINGS = ['br', 'gzip', 'identity'] as const;

/** /product/7 in one variant; `since`: asked as nginx's renewing listener asks (RENEW_HEADER). */
async function product(
  variant: { theme: string; encoding: string; accepted: boolean },
  since?: number,
) {
  const cookies = [`theme=${variant.theme}`];
  if (variant.accepted) cookies.push('cookieAccepted=true');
  const answer = await fetch(`${shop.url}product/7`, {
    headers: {
      cookie: cookies.join('; '),
      'accept-encoding': variant.encoding,
      ...(since === undefined ? {} : { [RENEW_HEADER]: String(since) }),
    },
  });
  expect(answer.status).toBe(200);
  return answer.text();
}

describe('a renewal of /product/7 in every variant', () => {
  it('renders once per cookie notice; each variant has its theme; a newer change renders again', async () => {
    await product({ theme: 'light', encoding: 'br', accepted: false });
    const before = await productRenders();
    const since = Date.now();
    for (const accepted of [false, true]) {
      for (const theme of THEMES) {
        for (const encoding of ENCODINGS) {
          const html = await product({ theme, encoding, accepted }, since);
          expect(html).toContain(`data-mantine-color-scheme="${theme}"`);
          expect(html.includes('Уведомление о cookie')).toBe(!accepted);
        }
      }
    }
    expect((await productRenders()) - before).toBe(2);
    // A newer change is never answered with the older one's render.
    await product({ theme: 'dark', encoding: 'gzip', accepted: false }, since + 1);
    expect((await productRenders()) - before).toBe(3);
  });

  it('a shopper’s request is rendered for them, not shared', async () => {
    const before = await productRenders();
    await product({ theme: 'light', encoding: 'br', accepted: false });
    await product({ theme: 'light', encoding: 'br', accepted: false });
    expect((await productRenders()) - before).toBe(2);
  });
});

describe('a renewal in front of a slow backend', () => {
  it('waits for answers a shopper’s page would not, and is kept whole', async () => {
    const stub = await startStub({ port: 0, dataFile: path.join(dataDir, 'slow.json') });
    // Every answer a second late: past the shopper's budget of 300 ms, within a renewal's.
    const slow = createServer((req, res) => {
      setTimeout(() => {
        void fetch(`${stub.url.replace(/\/$/, '')}${req.url}`).then(async (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? '',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
        });
      }, 1000);
    });
    slow.listen(0, '127.0.0.1');
    await once(slow, 'listening');
    const slowShop = await startShopServer({
      port: 0,
      host: '127.0.0.1',
      apiTarget: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
      dataTimeoutMs: 300,
    });
    try {
      const ask = (headers: Record<string, string> = {}) =>
        fetch(`${slowShop.url}product/7`, { headers: { cookie: 'theme=light', ...headers } });
      // A shopper's page goes out at its deadline, unloaded, and no cache may keep it.
      const shopper = await ask();
      expect(shopper.headers.get('cache-control')).toBe('private, no-store');
      // The renewal has the product, and nginx may keep it.
      const renewal = await ask({ [RENEW_HEADER]: String(Date.now()) });
      expect(renewal.headers.get('cache-control')).toMatch(/s-maxage=\d+/);
      expect(await renewal.text()).toContain('Малина');
    } finally {
      await slowShop.close();
      slow.closeAllConnections();
      slow.close();
      await stub.close();
    }
  });
});
