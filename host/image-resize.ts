// Resizing and encoding with sharp (libvips): a maintained native library that decodes JPEG,
// PNG, WebP, AVIF and GIF safely and fast, and writes AVIF, WebP and mozjpeg's JPEG, none of
// which JavaScript could do at a useful speed. Its Linux binary comes as an npm package.
import type { Sharp } from 'sharp';
import type createSharp from 'sharp';

export type OutputFormat = 'avif' | 'webp' | 'jpeg';

export const OUTPUT_TYPES: Record<OutputFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

export class ResizeError extends Error {
  constructor(readonly reason: 'too-many-pixels' | 'broken' | 'too-slow' | 'busy') {
    super(`image resize: ${reason}`);
  }
}

export interface ResizeLimits {
  /** A decompression bomb (a small file of 20000 × 20000 pixels) is refused from its header. */
  maxPixels: number;
  timeoutMs: number;
  /** Resizes at once; the others wait their turn, up to `maxWaiting`, and then are refused. */
  concurrency: number;
  maxWaiting: number;
}

let sharpLoaded: Promise<typeof createSharp> | undefined;

/** sharp and libvips load with the first picture to resize: many instances never resize one. */
function loadSharp(): Promise<typeof createSharp> {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    // Every result is kept on disk (host/image-cache.ts): libvips' own cache of open files and
    // operations would only hold memory.
    sharp.cache(false);
    return sharp;
  });
  return sharpLoaded;
}

/** Settings chosen for photos at card size: no visible loss, and the smallest files. */
function encode(image: Sharp, format: OutputFormat): Sharp {
  if (format === 'avif') return image.avif({ quality: 50, effort: 2 });
  if (format === 'webp') return image.webp({ quality: 72, effort: 4 });
  return image.jpeg({ quality: 75, mozjpeg: true, progressive: true });
}

/** A queue of at most `concurrency` running jobs and `maxWaiting` waiting ones. */
function limiter(concurrency: number, maxWaiting: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= maxWaiting) throw new ResizeError('busy');
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running += 1;
    try {
      return await job();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

export function imageResizer(limits: ResizeLimits) {
  const queue = limiter(limits.concurrency, limits.maxWaiting);
  return (source: Buffer, width: number, format: OutputFormat): Promise<Buffer> =>
    queue(async () => {
      const sharp = await loadSharp();
      const input = sharp(source, { limitInputPixels: limits.maxPixels, failOn: 'error' });
      try {
        // Turned upright as the camera's EXIF says (phones store photos sideways), never
        // enlarged, and written without the camera's metadata (location included).
        const resized = input
          .rotate()
          .resize({ width, withoutEnlargement: true })
          .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) });
        return await encode(resized, format).toBuffer();
      } catch (error) {
        const message = error instanceof Error ? error.message : '';
        if (/pixel limit/i.test(message)) throw new ResizeError('too-many-pixels');
        if (/timeout/i.test(message)) throw new ResizeError('too-slow');
        throw new ResizeError('broken');
      }
    });
}
