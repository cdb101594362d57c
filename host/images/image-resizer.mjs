// @ts-check
// The process that resizes pictures (host/images/image-resize.ts starts it with the first picture
// and stops it when it has been idle): sharp and libvips, and the 30–100 MB an AVIF encoder takes
// for one photo, live here rather than in the shop's process. A page never waits behind it for
// memory, and a picture that crashes the decoder takes this process down, not the shop. Plain
// JavaScript: Node runs it as it is wherever the host runs (built, `npm run dev`, tests).
import sharp from 'sharp';

// Every result is kept on disk (host/images/image-cache.ts): libvips' own cache of open files and
// operations would only hold memory.
sharp.cache(false);

/**
 * Settings chosen for photos at card size: no visible loss, and the smallest files.
 * @param {import('sharp').Sharp} image
 * @param {'avif' | 'webp' | 'jpeg'} format
 */
function encode(image, format) {
  if (format === 'avif') return image.avif({ quality: 50, effort: 2 });
  if (format === 'webp') return image.webp({ quality: 72, effort: 4 });
  return image.jpeg({ quality: 75, mozjpeg: true, progressive: true });
}

/** @param {unknown} error */
function reason(error) {
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return 'too-many-pixels';
  if (/timeout/i.test(message)) return 'too-slow';
  return 'broken';
}

/** @param {import('./image-resize.ts').ResizeJob} job */
async function resize({ id, source, width, format, maxPixels, timeoutSeconds }) {
  try {
    // Turned upright as the camera's EXIF says (phones store photos sideways), never enlarged,
    // and written without the camera's metadata (location included).
    const resized = sharp(source, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .timeout({ seconds: timeoutSeconds });
    const body = await encode(resized, format).toBuffer();
    process.send?.({ id, body });
  } catch (error) {
    process.send?.({ id, error: reason(error) });
  }
}

process.on('message', (job) => void resize(/** @type {any} */ (job)));
// The shop is gone (or let this process go): nothing more will be asked.
process.on('disconnect', () => process.exit(0));
