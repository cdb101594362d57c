// The OpenGraph picture and JSON-LD of the catalogue's pages, each built from its route's answers
// (the routes' `server.head`). Only the server's build keeps this module: the browser's leaves
// every `server: SERVER && {…}` out, and with it these builders.
import type { Breadcrumbs, Product, Section, Selection } from '../../api/types';
import { shopImagePath } from '../../lib/image-url';
import { hasPrice } from '../../lib/product-text';
import { CITY, PICKUP_ADDRESS, STORE_NAME } from '../../lib/shop-info';
import {
  absolute,
  breadcrumbList,
  type Crumbs,
  PLAIN_HEAD,
  previewImage,
} from '../../ui/head-parts';
import { PLACEHOLDER_IMAGE } from '../../ui/ImageWithPlaceholder';
import type { HeadExtras, PageAddress } from '../../ui/route';
import { paths } from '../../lib/paths';

export function productHead(
  product: Product,
  trail: Breadcrumbs | null,
  { origin, path }: PageAddress,
): HeadExtras {
  const crumbs: Crumbs = [
    { name: 'Главная', path: paths.home() },
    ...(trail ?? []).map((crumb) => ({ name: crumb.name, path: paths.section(crumb.id) })),
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
    type: 'product',
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: product.name,
        image: absolute(shopImagePath(product.image) ?? PLACEHOLDER_IMAGE, origin),
        url: origin + path,
        ...(offer ? { offers: offer } : {}),
      },
      breadcrumbList(origin, crumbs),
    ],
  };
}

export function sectionHead(
  section: Section,
  trail: Breadcrumbs | null,
  { origin, path }: PageAddress,
): HeadExtras {
  const crumbs: Crumbs = [
    { name: 'Главная', path: paths.home() },
    ...(trail ?? [])
      .filter((crumb) => crumb.id !== section.id)
      .map((crumb) => ({ name: crumb.name, path: paths.section(crumb.id) })),
    { name: section.name, path },
  ];
  return {
    image: previewImage(section.image),
    type: 'website',
    jsonLd: [breadcrumbList(origin, crumbs)],
  };
}

export function selectionHead(selection: Selection): HeadExtras {
  return {
    image: previewImage(selection.products[0]?.image ?? selection.sections[0]?.image),
    type: 'website',
    jsonLd: [],
  };
}

/** The shop's own JSON-LD, for its home page: the same whatever the page's answers. */
export function storeHead(_answers: unknown, { origin }: PageAddress): HeadExtras {
  return {
    ...PLAIN_HEAD,
    jsonLd: [
      {
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
      },
    ],
  };
}
