// What link previews (Telegram, VK) and search engines read in a page's HTML: the title, a
// description, the canonical address, OpenGraph and JSON-LD. Written by the server, from the
// page's route (its declaration beside the page, listed in src/app/routes.tsx) and the same
// answers the page rendered with. Only the server imports this module.
import { pageTitle } from '../lib/document-head';
import { SHOP_DESCRIPTION, STORE_NAME } from '../lib/shop-info';
import type { PageData } from '../ui/page-data';
import { absolute, PLAIN_HEAD } from '../ui/head-parts';
import type { HeadExtras } from '../ui/route';
import { NOT_FOUND_TEXTS, type RouteMatch } from './routes';

export interface Head extends HeadExtras {
  title: string;
  description: string;
  /** Only pages worth a search engine's index get a canonical address. */
  indexable: boolean;
}

/**
 * The head of the page at `path` (`match` null: the 404 page), made by its route from the
 * answers the page rendered with. Pages whose data the server did not get in time keep the
 * shop's own title and description.
 */
export function pageHead(
  match: RouteMatch | null,
  page: PageData,
  origin: string,
  path: string,
  status: number,
): Head {
  if (!match || status === 404) return { ...NOT_FOUND_TEXTS, ...PLAIN_HEAD, indexable: false };
  const { route, opened } = match;
  const indexable = route.server ? route.server.indexable : false;
  const texts = opened.texts(page.answerOf);
  if (!texts) return { title: STORE_NAME, description: SHOP_DESCRIPTION, ...PLAIN_HEAD, indexable };
  return { ...texts, ...(opened.head(page.answerOf, { origin, path }) ?? PLAIN_HEAD), indexable };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** JSON inside a <script>: nothing in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** The head as HTML tags. `url` is the page's canonical address. */
export function headHtml(head: Head, origin: string, url: string): string {
  const title = head.title === STORE_NAME ? STORE_NAME : pageTitle(head.title);
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
  const image = absolute(head.image, origin);
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', head.description),
    head.indexable
      ? `<link rel="canonical" href="${escapeHtml(url)}" />`
      : meta('name', 'robots', 'noindex'),
    meta('property', 'og:type', head.type),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', url),
    meta('property', 'og:site_name', STORE_NAME),
    meta('property', 'og:locale', 'ru_RU'),
    meta('property', 'og:image', image),
    meta('name', 'twitter:card', 'summary_large_image'),
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`),
  ].join('\n    ');
}
