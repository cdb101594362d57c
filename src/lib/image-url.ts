// Addresses of the shop's image route (host/images/image-route.ts): a picture under the backend's
// /media/, resized to one of a fixed set of widths, in the best format the browser takes.
//   /media/catalog/product-7.jpg at 640 px  ->  /img/v1/640/catalog/product-7.jpg
// A fixed set keeps the route's cache small and its work bounded: no one can ask for 10,000
// sizes of a photo. `v1` changes whenever the route's encoding does, so an answer may be kept
// forever by browsers, nginx and CDNs (Django's storage never overwrites a file: a new upload
// is a new name).

import { sameOriginPath } from './same-origin-path';

export const IMAGE_ROUTE = '/img';
export const IMAGE_VERSION = 'v1';
export const IMAGE_WIDTHS = [160, 240, 320, 480, 640, 960, 1280] as const;
/** Link previews (Telegram, VK): a 1200 px wide JPEG, whatever the reader's Accept says. */
export const OG_IMAGE = 'og';
export const OG_WIDTH = 1200;

/** What a URL's path and query may hold as written (RFC 3986): no space, quote or bracket. */
const URL_PATH = /^\/[\w\-.~!$&'()*+,;=:@%/?]+$/;

/**
 * The backend's picture address when it is a path on the shop's own origin (`/media/…`: the shop
 * serves the backend's files itself, and its CSP loads no other), else null: another site's
 * address, `javascript:`, `data:` or any text that is no such path never reaches a `src`.
 */
export function shopImagePath(src: string | null | undefined): string | null {
  if (typeof src !== 'string' || !URL_PATH.test(src)) return null;
  return sameOriginPath(src) === src ? src : null;
}

/**
 * A picture the route can resize: a path under /media/ (what the backend, through the shop's
 * proxy, gives), not an SVG (drawn at any size already), without a query or fragment.
 */
export function isResizable(src: string | null | undefined): src is string {
  // `/media/` then no `//`, `?`, `#` or `\`, and no .svg or .svgz at the end.
  return /^\/media(\/[^/?#\\]+)+$(?<!\.svgz?)/i.test(src ?? '');
}

/** The route's address of `src` (a resizable /media path) at `width`, or for link previews. */
export function imageUrl(src: string, width: number | typeof OG_IMAGE): string {
  return `${IMAGE_ROUTE}/${IMAGE_VERSION}/${width}/${src.slice(7)}`;
}

/** `src`, `srcSet` and `sizes` for an `<img>`: every width of the set, the browser picks one. */
export function responsiveImage(
  src: string,
  sizes: string,
): { src: string; srcSet?: string; sizes?: string } {
  if (!isResizable(src)) return { src };
  return {
    // For browsers without srcset: about a card on a phone at 2x.
    src: imageUrl(src, 480),
    srcSet: IMAGE_WIDTHS.map((width) => `${imageUrl(src, width)} ${width}w`).join(', '),
    sizes,
  };
}
