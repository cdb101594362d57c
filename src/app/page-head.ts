// What link previews (Telegram, VK) and search engines read in a page's HTML: the title, a
// description, the canonical address, OpenGraph and JSON-LD. Written by the server, from the
// route's entry (src/app/routes.tsx) and the same answers the page rendered with. Only the
// server imports this module: its builders are no weight in the browser.
import type { Breadcrumbs, Product, Section, Selection } from '../api/types';
import { pageTitle } from '../lib/document-head';
import { imageUrl, isResizable } from '../lib/image-url';
import { hasPrice } from '../lib/product-text';
import { CITY, PICKUP_ADDRESS, SHOP_DESCRIPTION, STORE_NAME } from '../lib/shop-info';
import type { PageData } from '../ui/page-data';
import { PLACEHOLDER_IMAGE } from '../ui/ImageWithPlaceholder';
import { type HeadName, mainQuery, NOT_FOUND_TEXTS, pageTexts, type RouteMatch } from './routes';

export interface Head {
  title: string;
  description: string;
  /** Site-absolute path, or absolute URL. */
  image: string;
  type: 'website' | 'product';
  jsonLd: object[];
  /** Only pages worth a search engine's index get a canonical address. */
  indexable: boolean;
}

/** What a route's head builder adds to its texts; the page's own path and main answer in. */
type Extras = Pick<Head, 'image' | 'type' | 'jsonLd'>;
type HeadBuilder = (main: unknown, origin: string, path: string) => Extras;

const PLAIN: Extras = { image: '/favicon.svg', type: 'website', jsonLd: [] };

type Crumbs = { name: string; path: string }[];

function breadcrumbList(origin: string, crumbs: Crumbs): object {
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

/** `src` as an absolute URL; a malformed one from the backend becomes the placeholder's. */
function absolute(src: string, origin: string): string {
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
function previewImage(src: string | null | undefined): string {
  if (isResizable(src)) return imageUrl(src, 'og');
  return src ?? PLACEHOLDER_IMAGE;
}

function productHead(origin: string, path: string, product: Product, trail: Breadcrumbs | null) {
  const crumbs: Crumbs = [
    { name: 'Главная', path: '/' },
    ...(trail ?? []).map((crumb) => ({ name: crumb.name, path: `/section/${crumb.id}` })),
    { name: product.name, path },
  ];
  const offer = hasPrice(product)
    ? {
        '@type': 'Offer',
        price: product.price,
        priceCurrency: 'RUB',
        availability: `https://schema.org/${product.available ? 'InStock' : 'OutOfStock'}`,
        url: origin + path,
      }
    : undefined;
  return {
    image: previewImage(product.image),
    type: 'product' as const,
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: product.name,
        image: absolute(product.image ?? PLACEHOLDER_IMAGE, origin),
        url: origin + path,
        ...(offer ? { offers: offer } : {}),
      },
      breadcrumbList(origin, crumbs),
    ],
  };
}

function sectionHead(origin: string, path: string, section: Section, trail: Breadcrumbs | null) {
  const crumbs: Crumbs = [
    { name: 'Главная', path: '/' },
    ...(trail ?? [])
      .filter((crumb) => crumb.id !== section.id)
      .map((crumb) => ({ name: crumb.name, path: `/section/${crumb.id}` })),
    { name: section.name, path },
  ];
  return {
    image: previewImage(section.image),
    type: 'website' as const,
    jsonLd: [breadcrumbList(origin, crumbs)],
  };
}

function selectionHead(selection: Selection) {
  return {
    image: previewImage(selection.products[0]?.image ?? selection.sections[0]?.image),
    type: 'website' as const,
    jsonLd: [],
  };
}

function storeJsonLd(origin: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Store',
    name: STORE_NAME,
    url: `${origin}/`,
    image: `${origin}/favicon.svg`,
    currenciesAccepted: 'RUB',
    address: {
      '@type': 'PostalAddress',
      streetAddress: PICKUP_ADDRESS,
      addressLocality: CITY,
      addressCountry: 'RU',
    },
  };
}

// Each builder gets its route's main answer (routes.tsx: the first query the route declares).
const HEADS: Record<HeadName, HeadBuilder> = {
  store: (_main, origin) => ({ ...PLAIN, jsonLd: [storeJsonLd(origin)] }),
  product: (main, origin, path) =>
    productHead(origin, path, ...(main as [Product, Breadcrumbs | null])),
  section: (main, origin, path) =>
    sectionHead(origin, path, ...(main as [Section, Breadcrumbs | null])),
  selection: (main) => selectionHead(main as Selection),
};

/**
 * The head of the page at `path` (`match` null: the 404 page). Pages whose data the server did
 * not get in time keep the shop's own title and description.
 */
export function pageHead(
  match: RouteMatch | null,
  page: PageData,
  origin: string,
  path: string,
  status: number,
): Head {
  if (!match || status === 404) return { ...NOT_FOUND_TEXTS, ...PLAIN, indexable: false };
  const { indexable = false, head } = match.route;
  const texts = pageTexts(match, (key) => page.answers[key]);
  if (!texts) return { title: STORE_NAME, description: SHOP_DESCRIPTION, ...PLAIN, indexable };
  const key = mainQuery(match)?.key;
  const main = key === undefined ? undefined : page.answers[key];
  return { ...texts, ...(head ? HEADS[head](main, origin, path) : PLAIN), indexable };
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
