// What link previews (Telegram, VK) and search engines read in a page's HTML: the title, a
// description, the canonical address, OpenGraph and JSON-LD. Written by the server, from the
// same answers the page rendered with.
import type { Breadcrumbs, Product, Section, Selection } from '../api/types';
import { CATALOG_TITLE } from '../features/catalog/texts';
import { pageTitle } from '../lib/document-title';
import { imageUrl, isResizable } from '../lib/image-url';
import { hasPrice, priceText, stockText } from '../lib/product-text';
import { CITY, PICKUP_ADDRESS, STORE_NAME } from '../lib/shop-info';
import type { PageData } from '../ui/page-data';
import { NOT_FOUND_TEXT } from '../ui/NotFound';
import { PLACEHOLDER_IMAGE } from '../ui/ImageWithPlaceholder';
import type { RouteMatch } from './routes';

const SHOP_DESCRIPTION = `${STORE_NAME} — свежие ягоды с доставкой по городу и самовывозом`;

/** Titles of the pages whose title does not come from their data (as the pages set them). */
const FIXED_TITLES: Record<string, string> = {
  '/': 'Главная',
  '/catalog': CATALOG_TITLE,
  '/search': 'Поиск',
  '/order': 'Корзина',
  '/commit': 'Подтверждение заказа',
  '/order_status': 'Заказы',
  '/policy': 'Политика конфиденциальности',
  '/news': 'Новости',
  '/login': 'Вход',
};

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
    title: product.name,
    description: `${product.name}: ${priceText(product)}, ${stockText(product)}. ${STORE_NAME}, ${CITY}.`,
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
    indexable: true,
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
  const count = section.products.length;
  return {
    title: section.name,
    description: `${section.name} в магазине «${STORE_NAME}»: ${count} ${count === 1 ? 'товар' : 'товаров'} с ценами и наличием.`,
    image: previewImage(section.image),
    type: 'website' as const,
    jsonLd: [breadcrumbList(origin, crumbs)],
    indexable: true,
  };
}

function selectionHead(selection: Selection) {
  return {
    title: selection.name,
    description: selection.description || `${selection.name} — подборка магазина «${STORE_NAME}»`,
    image: previewImage(selection.products[0]?.image ?? selection.sections[0]?.image),
    type: 'website' as const,
    jsonLd: [],
    indexable: true,
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
  const plain = (title: string, indexable = true): Head => ({
    title,
    description: SHOP_DESCRIPTION,
    image: '/favicon.svg',
    type: 'website',
    jsonLd: [],
    indexable,
  });
  if (!match || status === 404) return plain(NOT_FOUND_TEXT, false);
  const { route, params } = match;
  // The page's main answer: the first query its route declares.
  const [main] = route.data?.(params, new URLSearchParams()) ?? [];
  const answer = () => (main ? page.answers[main.key] : undefined);
  switch (route.path) {
    case '/':
      return { ...plain('Главная'), jsonLd: [storeJsonLd(origin)] };
    case '/product/:id': {
      const data = answer() as [Product, Breadcrumbs | null];
      return data ? productHead(origin, path, ...data) : plain(STORE_NAME);
    }
    case '/section/:id': {
      const data = answer() as [Section, Breadcrumbs | null];
      return data ? sectionHead(origin, path, ...data) : plain(STORE_NAME);
    }
    case '/selection/:id': {
      const data = answer() as Selection | undefined;
      return data ? selectionHead(data) : plain(STORE_NAME);
    }
    default: {
      const title = FIXED_TITLES[route.path] ?? STORE_NAME;
      // A visitor's own pages (basket, checkout, orders, login) and search results are not
      // pages for an index.
      const indexable = ['/catalog', '/news', '/policy'].includes(route.path);
      return plain(title, indexable);
    }
  }
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
