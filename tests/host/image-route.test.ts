// The image route's addresses (host/images/image-route.ts): one spelling per picture and width, so
// that nginx's and a CDN's caches hold one entry per picture, not one per way of writing its width.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageRoute } from '../../host/images/image-route.ts';
import * as entry from '../../src/server-entry/entry-server.tsx';
import { listen, type Listening, rawGet } from './http-helpers.ts';

let backend: Listening;
let shop: Listening;
let cacheDir: string;
const asked: string[] = [];

beforeAll(async () => {
  const photo = await sharp({
    create: { width: 400, height: 400, channels: 3, background: '#c2185b' },
  })
    .jpeg()
    .toBuffer();
  backend = await listen((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(photo);
  });
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'berries-image-route-'));
  const app = express();
  app.use(
    entry.IMAGE_ROUTE,
    imageRoute(entry, { mediaBase: () => `${backend.url}/media/`, cacheDir }),
  );
  shop = await listen(app);
});

afterAll(async () => {
  await shop.close();
  await backend.close();
  await rm(cacheDir, { recursive: true, force: true });
});

describe('/img/v1/{width}/{path}', () => {
  it('answers a width in its one spelling', async () => {
    const answer = await rawGet(shop.url, '/img/v1/160/catalog/product-2.jpg');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toContain('immutable');
  });

  it.each(['000000000000160', '0160', '16e1', '0xa0', '0o240', '0b10100000', '160e0'])(
    'width %s, another spelling of 160, is a 404 that asks the backend nothing',
    async (width) => {
      asked.length = 0;
      const answer = await rawGet(shop.url, `/img/v1/${width}/catalog/product-2.jpg`);
      expect(answer.status).toBe(404);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(asked).toEqual([]);
    },
  );

  it.each([
    '/IMG/v1/160/catalog/product-2.jpg',
    '/Img/v1/160/catalog/product-2.jpg',
    '/img//v1/160/catalog/product-2.jpg',
    '/img/v1//160/catalog/product-2.jpg',
    '/img/v1/160//catalog/product-2.jpg',
    '/img/V1/160/catalog/product-2.jpg',
    '/img/v1/OG/catalog/product-2.jpg',
  ])('%s, another spelling of the address, is a 404 that asks the backend nothing', async (url) => {
    asked.length = 0;
    const answer = await rawGet(shop.url, url);
    expect(answer.status).toBe(404);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(asked).toEqual([]);
  });
});
