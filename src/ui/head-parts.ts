// What the heads of pages are made of (src/app/page-head.ts, and the catalogue's builders in
// features/catalog/heads.ts): only the server's build keeps it.
import { imageUrl, isResizable, shopImagePath } from '../lib/image-url';
import { PLACEHOLDER_IMAGE } from './ImageWithPlaceholder';
import type { HeadExtras } from './route';

/** The shop's picture and no JSON-LD: a page's head without a builder of its own. */
export const PLAIN_HEAD: HeadExtras = { image: '/favicon.svg', type: 'website', jsonLd: [] };

/** `src` as an absolute URL; a malformed one from the backend becomes the placeholder's. */
export function absolute(src: string, origin: string): string {
  try {
    return new URL(src, origin).href;
  } catch {
    return new URL(PLACEHOLDER_IMAGE, origin).href;
  }
}

/**
 * What link previews show: a photo as the image route's 1200 px JPEG (Telegram and VK read
 * JPEG, not AVIF, and would otherwise fetch the 2 MB original), a drawing as it is.
 */
export function previewImage(src: string | null | undefined): string {
  const own = shopImagePath(src);
  if (isResizable(own)) return imageUrl(own, 'og');
  return own ?? PLACEHOLDER_IMAGE;
}

export type Crumbs = { name: string; path: string }[];

export function breadcrumbList(origin: string, crumbs: Crumbs): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: origin + crumb.path,
    })),
  };
}
