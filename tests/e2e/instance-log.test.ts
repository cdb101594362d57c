// What an instance writes to its log (issue 39): one line per request with the access log on, as
// the command line runs it, and no warning. /media's answers passed Node's ten 'close' listeners
// on a response and wrote a MaxListenersExceededWarning for every file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultBackend, stubBackend } from './fault-backends.ts';
import { type Instance, startShopProcess } from './nginx-recipe.ts';

let backend: FaultBackend;
let shop: Instance;

beforeAll(async () => {
  backend = await stubBackend();
  shop = await startShopProcess({ env: { API_TARGET: backend.url, ACCESS_LOG: '1' } });
});

afterAll(async () => {
  await shop?.close();
  await backend?.close();
});

describe("an instance's log", () => {
  it('has a line for each /media file, /api answer and page, and no warning', async () => {
    const photo = await fetch(`${shop.url}/media/catalog/product-7.jpg`);
    const etag = photo.headers.get('etag') ?? '';
    await photo.arrayBuffer();
    const requests: [string, Record<string, string>][] = [
      ['/media/catalog/product-7.jpg', {}],
      ['/media/catalog/product-7.jpg', { 'if-none-match': etag }],
      ['/media/catalog/product-7.jpg', { range: 'bytes=0-99' }],
      ['/media/catalog/product-1.svg', { 'accept-encoding': 'gzip' }],
      ['/media/policy.pdf', {}],
      ['/media/missing.png', {}],
      ['/api/catalog/section', {}],
      ['/catalog', {}],
    ];
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(
        requests.map(async ([path, headers]) => {
          const answer = await fetch(`${shop.url}${path}`, { headers });
          expect(answer.status, path).toBeLessThan(500);
          await answer.arrayBuffer();
        }),
      );
    }
    // A line for each (whatever the log's format), once the last has been written.
    const mediaLines = () =>
      shop
        .output()
        .split('\n')
        .filter((line) => line.includes('/media/')).length;
    await expect.poll(mediaLines).toBeGreaterThanOrEqual(1 + 6 * 3);
    // Node's warnings, as it writes them: `(node:1234) MaxListenersExceededWarning: …`.
    expect(shop.output()).not.toMatch(/\(node:\d+\) \w*Warning/);
  });
});
