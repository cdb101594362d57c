// `npm run build` gives a folder that runs by itself (vite.config.ts, runnableBuild): dist/ copied
// to a temporary folder, the copy started as `node <copy>/host/main.js` from yet another folder,
// with nothing of the checkout reachable (its node_modules are not above the copy) and nothing
// of it deleted. It serves a page, its scripts, a resized picture, the placeholder for a missing
// one and the embedded stub's policy PDF from the copy.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { assetsNamed } from './build-assets.ts';
import { type Instance, REPO_ROOT, startShopProcess } from './nginx-recipe.ts';

let dir = '';
let shop: Instance;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'berries-copied-build-'));
  const copy = path.join(dir, 'shop');
  await cp(path.join(REPO_ROOT, 'dist'), copy, { recursive: true });
  const elsewhere = path.join(dir, 'elsewhere');
  await cp(path.join(REPO_ROOT, 'README.md'), path.join(elsewhere, 'README.md'));
  shop = await startShopProcess({ main: path.join(copy, 'host', 'main.js'), cwd: elsewhere });
});
afterAll(async () => {
  await shop?.close();
  await rm(dir, { recursive: true, force: true });
});

test('the copied build serves a page and its scripts, a resized picture, the placeholder and the stub’s files', async () => {
  const page = await fetch(`${shop.url}/product/7`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Малина');

  const files = assetsNamed(html);
  expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(1);
  for (const file of files) {
    expect((await fetch(`${shop.url}${file}`)).status, file).toBe(200);
  }

  const picture = /\/img\/v1\/\d+\/catalog\/product-7\.jpg/.exec(html)?.[0];
  expect(picture).toBeDefined();
  const resized = await fetch(`${shop.url}${picture}`, { headers: { Accept: 'image/avif' } });
  expect(resized.status).toBe(200);
  expect(resized.headers.get('content-type')).toBe('image/avif');
  expect((await resized.arrayBuffer()).byteLength).toBeGreaterThan(500);

  const missing = await fetch(`${shop.url}/img/v1/160/catalog/no-such-photo.jpg`);
  expect(missing.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

  const policy = await fetch(`${shop.url}/media/policy.pdf`);
  expect(policy.status).toBe(200);
  expect(
    Buffer.from(await policy.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
});
