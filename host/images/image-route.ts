// GET /img/v1/{width}/{path}: the backend's /media/{path} at one of IMAGE_WIDTHS, as AVIF or
// WebP when the browser's Accept takes it, else JPEG (src/lib/image-url.ts writes these
// addresses). /img/v1/og/{path} is the 1200 px JPEG for link previews. An SVG passes unchanged.
//
// What the optimisers of other storefronts were caught out by, and how this route avoids it:
//   - SSRF: the request names only a path; the source is always API_TARGET's /media/ (or the
//     embedded stub's), each segment decoded once and checked, and redirects are not followed.
//   - Unbounded work: fixed widths; capped source bytes, pixels and time; a bounded queue.
//   - Cache-key confusion: the key hashes the canonical source address, width and format, and
//     the format comes from a closed list, never from the raw Accept header.
// Any failure answers the shop's placeholder picture (never an error page), briefly cached.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express, { type Request, type Response, type Router } from 'express';
import type { Entry } from '../app-entry.ts';
import { ImageCache, type CachedImage } from './image-cache.ts';
import { imageResizer, OUTPUT_TYPES, ResizeError, type OutputFormat } from './image-resize.ts';
import { fetchSource, SourceError } from './image-source.ts';
import type { PictureRecorder } from '../process/metrics.ts';
import { requestOf } from '../process/request-log.ts';
import { SVG_POLICY } from '../process/security.ts';
import { shopDefaults } from '../process/settings.ts';

const YEAR_SECONDS = 31_536_000;
const PLACEHOLDER = readFileSync(new URL('../../public/placeholder-product.svg', import.meta.url));

/** Each limit left out is the settings' default (host/process/settings.ts: IMAGE_*). */
export interface ImageRouteOptions {
  /** `https://backend.example/media/`: the only place sources come from (read per request). */
  mediaBase: () => string;
  /** How sources are fetched: through the server's bounded agent to the backend. */
  fetch?: typeof fetch;
  cacheDir?: string;
  /** The disk cache's cap. */
  cacheMaxBytes?: number;
  /** The largest source file fetched. */
  maxSourceBytes?: number;
  /** The most pixels decoded. */
  maxPixels?: number;
  /** The longest a source download, and then its resize, may take (each). */
  timeoutMs?: number;
  /** How long a result is served before its source is asked again with its ETag. */
  revalidateMs?: number;
  /** Resizes at once and waiting; beyond that the placeholder, until the queue drains. */
  concurrency?: number;
  maxWaiting?: number;
  /** Told of each picture resized or failed, and of the resizer's queue and starts. */
  pictures?: PictureRecorder;
}

const UNCOUNTED: PictureRecorder = {
  resized() {},
  failed() {},
  queued() {},
  resizerStarted() {},
};

export interface ImageRoute extends Router {
  /** Pictures being resized now, and waiting for their turn. */
  resizes(): { running: number; waiting: number };
}

/** The format to answer with, from the browser's Accept (q=0 refuses a type). */
export function negotiateFormat(accept: string): OutputFormat {
  const accepted = new Set<string>();
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.trim().split(';');
    if (!params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) accepted.add(type.trim());
  }
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'jpeg';
}

/**
 * The source path below /media/ in canonical form, or null when a segment is empty, `.` or
 * `..`, or decodes to a slash, backslash or control character (so `%2e%2e` is `..` too).
 */
export function canonicalMediaPath(raw: string): string | null {
  const segments = raw.split('/');
  const clean: string[] = [];
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    const control = [...decoded].some((char) => char < ' ' || char === '\u007f');
    if (!decoded || decoded === '.' || decoded === '..' || /[/\\]/.test(decoded) || control) {
      return null;
    }
    clean.push(encodeURIComponent(decoded));
  }
  return clean.join('/');
}

type Failure = { status: number; reason: string };

function failure(error: unknown): Failure {
  if (error instanceof SourceError) {
    if (error.reason === 'missing') return { status: 404, reason: error.reason };
    if (error.reason === 'too-large') return { status: 413, reason: error.reason };
    if (error.reason === 'too-slow') return { status: 504, reason: error.reason };
    return { status: 502, reason: error.reason };
  }
  if (error instanceof ResizeError) {
    if (error.reason === 'too-many-pixels') return { status: 413, reason: error.reason };
    if (error.reason === 'busy') return { status: 503, reason: error.reason };
    if (error.reason === 'too-slow') return { status: 504, reason: error.reason };
    return { status: 502, reason: error.reason };
  }
  console.error('image:', error);
  return { status: 500, reason: 'error' };
}

/** Tells of the cache's first failure (a full or read-only disk): the route goes on without it. */
function cacheWarning(): (error: unknown) => void {
  let warned = false;
  return (error) => {
    if (warned) return;
    warned = true;
    console.error('image cache:', error instanceof Error ? error.message : error);
  };
}

/** The image addresses as the app writes them (src/lib/image-url.ts, through its entry). */
export type ImageAddresses = Pick<
  Entry,
  'IMAGE_ROUTE' | 'IMAGE_VERSION' | 'IMAGE_WIDTHS' | 'OG_IMAGE' | 'OG_WIDTH'
>;

export function imageRoute(
  { IMAGE_ROUTE, IMAGE_VERSION, IMAGE_WIDTHS, OG_IMAGE, OG_WIDTH }: ImageAddresses,
  given: ImageRouteOptions,
): ImageRoute {
  const options = { ...shopDefaults.images, ...given };
  const pictures = given.pictures ?? UNCOUNTED;
  const limits = {
    maxBytes: options.maxSourceBytes,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch ?? fetch,
  };
  const revalidateMs = options.revalidateMs;
  const cache = new ImageCache(options.cacheDir, options.cacheMaxBytes);
  const warnCacheOnce = cacheWarning();
  const resize = imageResizer(
    {
      maxPixels: options.maxPixels,
      timeoutMs: limits.timeoutMs,
      concurrency: options.concurrency,
      maxWaiting: options.maxWaiting,
    },
    pictures,
  );
  // Two requests for the same result while it is being made share the work.
  const making = new Map<string, Promise<CachedImage>>();

  async function make(
    key: string,
    source: string,
    width: number,
    format: OutputFormat,
    stale: CachedImage | null,
    requestId: string,
  ): Promise<CachedImage> {
    const answer = await fetchSource(source, limits, stale?.note.validators, requestId);
    const now = Date.now();
    if (answer.kind === 'unchanged' && stale) {
      await cache.confirm(key, stale, now).catch(warnCacheOnce);
      return stale;
    }
    if (answer.kind !== 'body') throw new SourceError('unreachable');
    const svg = answer.type === 'image/svg+xml';
    const body = svg ? answer.body : await resize(answer.body, width, format);
    if (!svg) pictures.resized(format);
    const note = {
      source,
      type: svg ? answer.type : OUTPUT_TYPES[format],
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      validators: answer.validators,
      checkedAt: now,
    };
    // A cache that cannot write (a full disk) costs the next request the work, not this answer.
    await cache.put(key, body, note).catch(warnCacheOnce);
    return { body, note };
  }

  async function result(source: string, width: number, format: OutputFormat, requestId: string) {
    const key = createHash('sha256')
      .update(JSON.stringify([IMAGE_VERSION, source, width, format]))
      .digest('hex');
    const cached = await cache.get(key).catch((error: unknown) => {
      warnCacheOnce(error);
      return null;
    });
    if (cached && Date.now() - cached.note.checkedAt < revalidateMs) return cached;
    let pending = making.get(key);
    if (!pending) {
      pending = make(key, source, width, format, cached, requestId).catch(
        async (error: unknown) => {
          // A backend that cannot answer now keeps the last good result in service; one that
          // says the file is gone takes it away.
          if (cached && !(error instanceof SourceError && error.reason === 'missing')) {
            return cached;
          }
          if (cached) await cache.delete(key).catch(warnCacheOnce);
          throw error;
        },
      );
      making.set(key, pending);
      void pending.finally(() => making.delete(key)).catch(() => {});
    }
    return pending;
  }

  const router = express.Router();
  // The whole path as sent, the route's own name included: express matches a mount path in any
  // letter case (`/IMG`) and with empty segments (`/img//v1`), each another address of a picture.
  const address = new RegExp(`^${IMAGE_ROUTE}/([a-z0-9]+)/([a-z0-9]+)/([^?]+)$`);
  router.get(/.*/, async (req: Request, res: Response) => {
    // The path as sent (express would decode captured parameters once before this reads them).
    const [, version = '', size = '', rawPath = ''] = address.exec(req.originalUrl) ?? [];
    const og = size === OG_IMAGE;
    const width = og ? OG_WIDTH : Number(size);
    const mediaPath = canonicalMediaPath(rawPath);
    // One address per result: a query or another spelling of the path or the width (`0160`,
    // `16e1`, `0xa0` are all 160 to Number) would be another entry in nginx's and the CDN's
    // caches for the same picture (cache-key confusion).
    const canonical = mediaPath === rawPath && !req.originalUrl.includes('?');
    const known = og || (IMAGE_WIDTHS as readonly number[]).some((w) => String(w) === size);
    if (version !== IMAGE_VERSION || !known || !mediaPath || !canonical) {
      res
        .status(404)
        .set('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Не найдено');
      return;
    }
    const base = new URL(options.mediaBase());
    const source = new URL(mediaPath, base);
    // Belt and braces: the canonical path cannot leave /media/, and this says so.
    if (source.origin !== base.origin || !source.pathname.startsWith(base.pathname)) {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Не найдено');
      return;
    }
    const format = og ? 'jpeg' : negotiateFormat(String(req.headers.accept ?? ''));
    res.vary('Accept');
    try {
      const { body, note } = await result(source.href, width, format, requestOf(req).id);
      // The type this request's format has; only an SVG passed through keeps its own.
      const type = note.type === 'image/svg+xml' ? note.type : OUTPUT_TYPES[format];
      res.set({
        'Content-Type': type,
        'Cache-Control': `public, max-age=${YEAR_SECONDS}, immutable`,
        ETag: note.etag,
      });
      if (type === 'image/svg+xml') res.set('Content-Security-Policy', SVG_POLICY);
      // express answers 304 to a matching If-None-Match.
      res.send(body);
    } catch (error) {
      const { status, reason } = failure(error);
      pictures.failed(reason);
      res
        .status(status)
        .set({
          'Content-Type': 'image/svg+xml',
          // A missing or oversized source is a fact for a minute; a backend that is down or
          // busy now may answer the next request.
          'Cache-Control': status >= 500 ? 'no-store' : 'public, max-age=60',
          'Content-Security-Policy': SVG_POLICY,
          'X-Image-Error': reason,
        })
        .send(PLACEHOLDER);
    }
  });
  return Object.assign(router, { resizes: resize.counts });
}
