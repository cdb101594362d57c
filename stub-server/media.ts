// /media: the generated images of the seed catalogue (SVG drawings, and JPEG photos for the
// home page, fixtures/photos.ts) and the policy PDF.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type Router } from 'express';
import type { DetailError } from '../src/api/types.ts';
import { type ArtSpec, renderArt } from './fixtures/art.ts';
import { PRODUCTS, SECTIONS } from './fixtures/catalog.ts';
import { SLIDES } from './fixtures/content.ts';
import { PHOTO_PRODUCTS, PHOTO_SLIDES } from './fixtures/media-paths.ts';
import { photoFile, renderPhoto } from './fixtures/photos.ts';
import { NOT_FOUND } from './http.ts';

export const POLICY_FILE = fileURLToPath(new URL('./fixtures/policy.pdf', import.meta.url));

const DAY_SECONDS = 86_400;
const rendered = new Map<string, string>();

interface Image {
  spec: ArtSpec;
  seed: number;
  width?: number;
  height?: number;
  background?: string;
}

function imageFor(folder: string, kind: string, id: number): Image | null {
  if (folder === 'catalog' && kind === 'product') {
    const art = PRODUCTS.find((product) => product.id === id)?.art;
    return art ? { spec: art, seed: id } : null;
  }
  if (folder === 'catalog' && kind === 'section') {
    const art = SECTIONS.find((section) => section.id === id)?.art;
    return art ? { spec: art, seed: 1000 + id } : null;
  }
  if (folder === 'carousel' && kind === 'slide') {
    const slide = SLIDES.find((candidate) => candidate.id === id);
    return slide
      ? { spec: slide.art, seed: 2000 + id, width: 800, height: 500, background: slide.background }
      : null;
  }
  return null;
}

/** The SVG text for a /media path like `catalog/product-7.svg`, null when there is none. */
export function renderMedia(path: string): string | null {
  const match = /^\/?(catalog|carousel)\/(product|section|slide)-(\d+)\.svg$/.exec(path);
  if (!match) return null;
  const [, folder = '', kind = '', id = ''] = match;
  const cached = rendered.get(path);
  if (cached) return cached;
  const image = imageFor(folder, kind, Number(id));
  if (!image) return null;
  const { spec, ...options } = image;
  const svg = renderArt(spec, options);
  rendered.set(path, svg);
  return svg;
}

/** The photo file for a /media path like `catalog/product-7.jpg`, null when there is none. */
export function mediaPhoto(path: string): Promise<string> | null {
  const match = /^\/?(catalog\/product|carousel\/slide)-(\d+)\.jpg$/.exec(path);
  if (!match) return null;
  const [, kind = '', id = ''] = match;
  const photos = kind === 'catalog/product' ? PHOTO_PRODUCTS : PHOTO_SLIDES;
  if (!photos.has(Number(id))) return null;
  const svg = renderMedia(`${kind}-${id}.svg`);
  if (svg === null) return null;
  const aspect = kind === 'carousel/slide' ? 1.6 : 1;
  return photoFile(`${kind.replace('/', '-')}-${id}.jpg`, () =>
    renderPhoto(svg, aspect, Number(id) * 7919 + aspect * 1000),
  );
}

function notFound(_req: Request, res: Response): void {
  res.status(404).json({ detail: NOT_FOUND } satisfies DetailError);
}

export function mediaRouter(): Router {
  const router = express.Router();
  router.get(/^\/(catalog|carousel)\/[a-z]+-\d+\.svg$/, (req, res, next) => {
    const svg = renderMedia(req.path);
    if (svg === null) {
      next();
      return;
    }
    res
      .type('image/svg+xml')
      .set({
        'Cache-Control': `public, max-age=${DAY_SECONDS}`,
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
        'X-Content-Type-Options': 'nosniff',
      })
      .send(svg);
  });
  router.get(/^\/(catalog|carousel)\/[a-z]+-\d+\.jpg$/, (req, res, next) => {
    const photo = mediaPhoto(req.path);
    if (photo === null) {
      next();
      return;
    }
    photo.then(
      (file) =>
        // sendFile answers with an ETag and Last-Modified, and 304 to a conditional request.
        res.sendFile(file, {
          headers: { 'Cache-Control': `public, max-age=${DAY_SECONDS}` },
        }),
      next,
    );
  });
  router.get('/policy.pdf', (_req, res, next) => {
    if (!existsSync(POLICY_FILE)) {
      next();
      return;
    }
    res.sendFile(POLICY_FILE, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': 'inline; filename="policy.pdf"',
        'Cache-Control': `public, max-age=${DAY_SECONDS}`,
      },
    });
  });
  router.use(notFound);
  return router;
}
