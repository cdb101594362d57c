import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PRODUCTS, SECTIONS } from '../../stub-server/fixtures/catalog.ts';
import { buildCatalogSeed } from '../../stub-server/fixtures/seed.ts';
import { renderMedia } from '../../stub-server/media.ts';
import { Visitor, stubPerFile } from './helpers.ts';

const server = stubPerFile();

/** Every image URL the seed data holds: products, sections, slides. */
function seedImageUrls(): string[] {
  const catalog = buildCatalogSeed();
  return [
    ...catalog.products.map((product) => product.image),
    ...catalog.sections.map((section) => section.image),
    ...catalog.slides.map((slide) => slide.image),
  ].filter((url): url is string => url !== null);
}

describe('/media images', () => {
  it('every product and section has an image except the one product without', () => {
    const catalog = buildCatalogSeed();
    expect(catalog.products.filter((p) => p.image === null).map((p) => p.id)).toEqual([45]);
    expect(catalog.sections.every((s) => s.image !== null)).toBe(true);
    expect(seedImageUrls().length).toBe(PRODUCTS.length - 1 + SECTIONS.length + 3);
  });

  it('every drawing in the fixtures answers 200 image/svg+xml with cache headers', async () => {
    const urls = seedImageUrls().filter((url) => url.endsWith('.svg'));
    const answers = await Promise.all(
      urls.map(async (url) => {
        const response = await fetch(new URL(url, server.url));
        return { url, response, text: await response.text() };
      }),
    );
    for (const { url, response, text } of answers) {
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(/^image\/svg\+xml/);
      expect(response.headers.get('cache-control'), url).toMatch(/max-age=\d+/);
      expect(text, url).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(text, url).toMatch(/<\/svg>$/);
      expect(text, url).not.toMatch(/<text|<script|NaN|undefined/);
    }
  });

  it('every image URL the API answers resolves too', async () => {
    const visitor = new Visitor(server.url);
    const urls = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'image' && typeof inner === 'string') urls.add(inner);
          else collect(inner);
        }
      }
    };
    for (const path of [
      '/api/catalog/product',
      '/api/catalog/section',
      '/api/catalog/section_root',
      '/api/catalog/selections',
      '/api/content/carousel',
      '/api/catalog/section_retrieve/14',
    ]) {
      collect((await visitor.get(path)).body);
    }
    expect(urls.size).toBeGreaterThan(20);
    for (const url of urls) {
      const response = await fetch(new URL(url, server.url));
      expect(response.status, url).toBe(200);
    }
  });

  it('the home page’s products and first slide are photos: JPEGs of 2400 px and over 1 MB', async () => {
    const photos = seedImageUrls().filter((url) => url.endsWith('.jpg'));
    expect(photos).toContain('/media/catalog/product-7.jpg');
    expect(photos).toContain('/media/carousel/slide-1.jpg');
    expect(photos.length).toBeGreaterThanOrEqual(5);
    for (const url of ['/media/catalog/product-7.jpg', '/media/carousel/slide-1.jpg']) {
      const response = await fetch(new URL(url, server.url));
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('image/jpeg');
      expect(response.headers.get('etag'), url).toBeTruthy();
      expect(response.headers.get('last-modified'), url).toBeTruthy();
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.format, url).toBe('jpeg');
      expect(meta.width, url).toBe(2400);
      expect(meta.size ?? 0, url).toBeGreaterThan(1_000_000);
    }
  });

  it('images are deterministic and differ between products', () => {
    const first = renderMedia('/catalog/product-7.svg');
    expect(first).not.toBeNull();
    expect(renderMedia('catalog/product-7.svg')).toBe(first);
    expect(renderMedia('/catalog/product-8.svg')).not.toBe(first);
    expect(renderMedia('/catalog/product-45.svg')).toBeNull();
  });

  it('unknown media answers 404, and /media needs no CSRF or cookies', async () => {
    for (const path of [
      '/media/catalog/product-9999.svg',
      '/media/catalog/product-45.svg',
      '/media/catalog/product-1.jpg',
      '/media/nope.png',
    ]) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(404);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
  });

  it('a repeated request with the ETag answers 304', async () => {
    const url = new URL('/media/catalog/section-1.svg', server.url);
    const first = await fetch(url);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // fetch adds `Cache-Control: no-cache` to conditional requests unless one is given.
    const second = await fetch(url, {
      headers: { 'If-None-Match': etag ?? '', 'Cache-Control': 'max-age=0' },
    });
    expect(second.status).toBe(304);
  });
});
