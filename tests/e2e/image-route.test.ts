// The image route (host/images/image-route.ts) in front of a backend it does not control: what a
// browser gets for each Accept, what an attacker cannot make it fetch or chew on, and what the
// backend sees of its cache.
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import {
  createServer,
  get as httpGet,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import type { ImageRouteOptions } from '../../host/images/image-route.ts';
import { renderPhoto } from '../../stub-server/fixtures/photos.ts';
import { renderMedia } from '../../stub-server/media.ts';

const AVIF = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const WEBP = 'image/webp,*/*';

/** A PNG of `side` × `side` one-bit pixels, all black: 50 KB that decode to 400 megapixels. */
function bomb(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // 1 bit, greyscale
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface Source {
  body: Buffer;
  type: string;
  etag?: string;
}

/** The backend: /media files with ETags, everything it was asked, and one path outside /media. */
const sources = new Map<string, Source>();
const asked: { url: string; conditional: boolean }[] = [];
let backendServer: Server;
let backendUrl = '';
let elsewhere: Server;
let elsewhereAsked = 0;
let elsewhereUrl = '';

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '';
  asked.push({ url, conditional: Boolean(req.headers['if-none-match']) });
  if (url === '/media/redirect.jpg') {
    res.writeHead(302, { Location: `${elsewhereUrl}/secret.jpg` }).end();
    return;
  }
  if (url === '/media/held.jpg') return; // never answers
  const source = sources.get(url);
  if (!source) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no');
    return;
  }
  if (source.etag && req.headers['if-none-match'] === source.etag) {
    res.writeHead(304, { ETag: source.etag }).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': source.type, ...(source.etag && { ETag: source.etag }) });
  res.end(source.body);
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const shops: RunningShop[] = [];
const dirs: string[] = [];

async function shop(images: Omit<ImageRouteOptions, 'mediaBase' | 'cacheDir'> = {}, api = '') {
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'berries-images-'));
  dirs.push(cacheDir);
  const running = await startShopServer({
    port: 0,
    apiTarget: api || backendUrl,
    images: { cacheDir, ...images },
  });
  shops.push(running);
  return { url: running.url.replace(/\/$/, ''), cacheDir };
}

let photo: Buffer;
let main: { url: string; cacheDir: string };

beforeAll(async () => {
  const svg = renderMedia('catalog/product-7.svg') ?? '';
  photo = await renderPhoto(svg, 1, 7);
  sources.set('/media/catalog/product-7.jpg', { body: photo, type: 'image/jpeg', etag: '"p7"' });
  sources.set('/media/catalog/%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0.jpg', {
    body: photo,
    type: 'image/jpeg',
  });
  sources.set('/media/art.svg', { body: Buffer.from(svg), type: 'image/svg+xml' });
  sources.set('/media/bomb.png', { body: bomb(20_000), type: 'image/png' });
  sources.set('/media/broken.jpg', { body: Buffer.from('not a jpeg at all'), type: 'image/jpeg' });
  sources.set('/media/page.jpg', { body: Buffer.from('<html></html>'), type: 'text/html' });
  sources.set('/media/big.jpg', { body: Buffer.alloc(3_000_000, 1), type: 'image/jpeg' });
  sources.set('/secret.jpg', { body: photo, type: 'image/jpeg' });
  backendServer = createServer(answer);
  backendUrl = await listen(backendServer);
  elsewhere = createServer((_req, res) => {
    elsewhereAsked += 1;
    res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(photo);
  });
  elsewhereUrl = await listen(elsewhere);
  main = await shop({ maxSourceBytes: 2_500_000 });
});

afterAll(async () => {
  await Promise.all(shops.map((running) => running.close()));
  for (const server of [backendServer, elsewhere]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const get = (url: string, accept = AVIF, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { Accept: accept, ...headers } });

/** The status of `path` sent exactly as written (no dot segments resolved on the way). */
function rawStatus(base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(`${base}/`, { path }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

async function picture(response: Response) {
  const body = Buffer.from(await response.arrayBuffer());
  return { body, meta: await sharp(body).metadata() };
}

const askedFor = (url: string) => asked.filter((request) => request.url === url);

describe('a product photo at a card’s size', () => {
  it('is an AVIF under 30 KB for a browser that takes AVIF, 640 px wide, cached forever', async () => {
    const response = await get(`${main.url}/img/v1/640/catalog/product-7.jpg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/avif');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toMatch(/Accept/);
    const { body, meta } = await picture(response);
    expect(body.byteLength).toBeLessThan(30_000);
    expect(photo.byteLength).toBeGreaterThan(1_000_000);
    expect(meta.format).toBe('heif');
    expect(meta.width).toBe(640);
    expect(meta.height).toBe(640);
  });

  it('is WebP for a browser that takes WebP only, and JPEG for one that takes neither', async () => {
    const webp = await get(`${main.url}/img/v1/320/catalog/product-7.jpg`, WEBP);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect((await picture(webp)).meta).toMatchObject({ format: 'webp', width: 320 });
    const jpeg = await get(`${main.url}/img/v1/320/catalog/product-7.jpg`, 'image/*');
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect((await picture(jpeg)).meta).toMatchObject({ format: 'jpeg', width: 320 });
    const refused = await get(`${main.url}/img/v1/320/catalog/product-7.jpg`, 'image/avif;q=0');
    expect(refused.headers.get('content-type')).toBe('image/jpeg');
  });

  it('is a 1200 px JPEG for link previews, whatever Accept says', async () => {
    const response = await get(`${main.url}/img/v1/og/catalog/product-7.jpg`);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect((await picture(response)).meta).toMatchObject({ format: 'jpeg', width: 1200 });
  });

  it('keeps a file name in Cyrillic', async () => {
    const response = await get(
      `${main.url}/img/v1/160/catalog/%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0.jpg`,
    );
    expect(response.status).toBe(200);
    expect((await picture(response)).meta.width).toBe(160);
  });

  it('passes an SVG through unchanged', async () => {
    const response = await get(`${main.url}/img/v1/640/art.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toBe(sources.get('/media/art.svg')?.body.toString());
  });

  it('answers 304 to the ETag it gave', async () => {
    const url = `${main.url}/img/v1/240/catalog/product-7.jpg`;
    const first = await get(url);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    // As a browser revalidates (fetch() would add Cache-Control: no-cache to the request).
    const revalidated = await new Promise<number>((resolve, reject) => {
      httpGet(url, { headers: { Accept: AVIF, 'If-None-Match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(revalidated).toBe(304);
  });
});

describe('what the route refuses', () => {
  it('a width outside the set, or an unknown version', async () => {
    for (const path of [
      '/img/v1/641/catalog/product-7.jpg',
      '/img/v1/5000/catalog/product-7.jpg',
      '/img/v9/640/catalog/product-7.jpg',
    ]) {
      const response = await get(main.url + path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/plain/);
    }
  });

  it('any other host, or any path outside /media, without asking anyone', async () => {
    const before = asked.length;
    const host = elsewhereUrl.replace('http://', '');
    for (const path of [
      `/img/v1/640/${elsewhereUrl}/secret.jpg`,
      `/img/v1/640//${host}/secret.jpg`,
      `/img/v1/640/http:%2F%2F${host}%2Fsecret.jpg`,
      '/img/v1/640/catalog/%2E%2E%2F%2E%2E%2Fsecret.jpg',
      '/img/v1/640/catalog/..%5C..%5Csecret.jpg',
      '/img/v1/640/%252e%252e/secret.jpg',
    ]) {
      const response = await get(main.url + path);
      expect(response.status, path).toBe(404);
    }
    // Sent as written: fetch() would resolve the dots before they left.
    for (const path of ['/img/v1/640/../secret.jpg', '/img/v1/640/%2e%2e/secret.jpg']) {
      expect(await rawStatus(main.url, path), path).toBe(404);
    }
    expect(asked.slice(before).filter((request) => !request.url.startsWith('/media/'))).toEqual([]);
    expect(elsewhereAsked).toBe(0);
  });

  it('another address of a picture: a query, or its path spelt otherwise', async () => {
    expect((await get(`${main.url}/img/v1/640/catalog/product-7.jpg`)).status).toBe(200);
    for (const path of [
      '/img/v1/640/catalog/product-7.jpg?1',
      '/img/v1/640/catalog/%70roduct-7.jpg',
    ]) {
      const response = await get(main.url + path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('a redirect: not followed, the placeholder instead', async () => {
    const response = await get(`${main.url}/img/v1/640/redirect.jpg`);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toMatch(/^<svg/);
    expect(elsewhereAsked).toBe(0);
  });

  it('a 20000 × 20000 image: the placeholder, and the server stays healthy', async () => {
    const response = await get(`${main.url}/img/v1/640/bomb.png`);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('x-image-error')).toBe('too-many-pixels');
    expect(await (await fetch(`${main.url}/healthz`)).text()).toBe('ok');
    expect((await get(`${main.url}/img/v1/160/catalog/product-7.jpg`)).status).toBe(200);
  });

  it('a source over the byte cap, a broken file, a page or a missing file: the placeholder', async () => {
    const cases = [
      ['big.jpg', 413, 'too-large'],
      ['broken.jpg', 502, 'broken'],
      ['page.jpg', 502, 'not-an-image'],
      ['missing.jpg', 404, 'missing'],
    ] as const;
    for (const [name, status, reason] of cases) {
      const response = await get(`${main.url}/img/v1/640/${name}`);
      expect(response.status, name).toBe(status);
      expect(response.headers.get('x-image-error'), name).toBe(reason);
      expect(response.headers.get('content-type'), name).toBe('image/svg+xml');
      // Kept a minute when the source said so; a failure to get it is not kept at all.
      expect(response.headers.get('cache-control'), name).toBe(
        status < 500 ? 'public, max-age=60' : 'no-store',
      );
    }
  });

  it('a source that does not answer in time, or a backend that is down: the placeholder', async () => {
    const impatient = await shop({ timeoutMs: 300 });
    const held = await get(`${impatient.url}/img/v1/640/held.jpg`);
    expect(held.status).toBe(504);
    expect(held.headers.get('x-image-error')).toBe('too-slow');
    const gone = createServer();
    const goneUrl = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    const orphan = await shop({}, goneUrl);
    const down = await get(`${orphan.url}/img/v1/640/catalog/product-7.jpg`);
    expect(down.status).toBe(502);
    expect(down.headers.get('cache-control')).toBe('no-store');
    expect(await down.text()).toMatch(/^<svg/);
  });
});

describe('the disk cache', () => {
  it('answers a second request without asking the backend', async () => {
    const fresh = await shop();
    const url = `${fresh.url}/img/v1/480/catalog/product-7.jpg`;
    const before = askedFor('/media/catalog/product-7.jpg').length;
    const first = Buffer.from(await (await get(url)).arrayBuffer());
    const second = Buffer.from(await (await get(url)).arrayBuffer());
    expect(second.equals(first)).toBe(true);
    expect(askedFor('/media/catalog/product-7.jpg').length - before).toBe(1);
    // Another format is another result.
    await get(url, WEBP);
    expect(askedFor('/media/catalog/product-7.jpg').length - before).toBe(2);
  });

  it('revalidates with the source’s ETag, and makes the picture again when it changed', async () => {
    const eager = await shop({ revalidateMs: 0 });
    const url = `${eager.url}/img/v1/160/catalog/product-7.jpg`;
    const first = await get(url);
    const firstTag = first.headers.get('etag');
    const before = askedFor('/media/catalog/product-7.jpg').length;
    const again = await get(url);
    expect(again.headers.get('etag')).toBe(firstTag);
    const revalidation = askedFor('/media/catalog/product-7.jpg').slice(before);
    expect(revalidation).toEqual([{ url: '/media/catalog/product-7.jpg', conditional: true }]);
    const source = sources.get('/media/catalog/product-7.jpg');
    const changed = await sharp(photo).flop().jpeg().toBuffer();
    sources.set('/media/catalog/product-7.jpg', {
      body: changed,
      type: 'image/jpeg',
      etag: '"p7b"',
    });
    try {
      const after = await get(url);
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(firstTag);
    } finally {
      if (source) sources.set('/media/catalog/product-7.jpg', source);
    }
  });

  it('stays under its size cap, dropping the least recently used first', async () => {
    const small = await shop({ cacheMaxBytes: 35_000 });
    const url = (width: number) => `${small.url}/img/v1/${width}/catalog/product-7.jpg`;
    for (const width of [160, 240, 320, 480, 640, 960]) {
      expect((await get(url(width))).status).toBe(200);
    }
    const files = (await readdir(small.cacheDir)).filter((name) => name.endsWith('.img'));
    const sizes = await Promise.all(
      files.map(async (name) => (await stat(path.join(small.cacheDir, name))).size),
    );
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(35_000);
    // The newest is still there; the oldest was made again.
    const before = askedFor('/media/catalog/product-7.jpg').length;
    await get(url(960));
    expect(askedFor('/media/catalog/product-7.jpg').length).toBe(before);
    await get(url(160));
    expect(askedFor('/media/catalog/product-7.jpg').length).toBe(before + 1);
  });
});
