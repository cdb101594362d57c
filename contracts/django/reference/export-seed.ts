// The stub's seed for the reference Django backend: `tsx contracts/django/reference/export-seed.ts`
// prints it as JSON, and `manage.py seed FILE` loads it. Same ids, names, prices and tree as the
// stub (stub-server/fixtures), so the pact's examples and the e2e tests work against either.
//
// The stub draws its pictures as SVG; Django's ImageField wants raster photos, which the seed
// command paints with PIL. Each picture goes out as the colours of the stub's own drawing (its
// background gradient and its berries), read off the SVG that the stub would serve.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ArtSpec, renderArt } from '../../../stub-server/fixtures/art.ts';
import {
  HOME_PRODUCTS,
  HOME_SECTIONS,
  PRODUCTS,
  SECTIONS,
  SELECTIONS,
} from '../../../stub-server/fixtures/catalog.ts';
import { NEWS, POLICY_URL, SLIDES } from '../../../stub-server/fixtures/content.ts';
import { DEMO_ORDERS, DEMO_USER, type OrderFixture } from '../../../stub-server/fixtures/users.ts';

export interface PhotoColours {
  /** The radial gradient of the background, from the centre out. */
  centre: string;
  tint: string;
  /** [light, fill, dark] of each berry. */
  berries: [string, string, string][];
}

export interface PhotoSpec {
  /** Under MEDIA_ROOT: `catalog/product-7.jpg`. */
  file: string;
  colours: PhotoColours;
}

export interface DjangoSeed {
  sections: {
    id: number;
    name: string;
    parent: number | null;
    home_position: number | null;
    image: PhotoSpec | null;
  }[];
  products: {
    id: number;
    name: string;
    section: number;
    unit: string;
    unit_step: number | null;
    price: number | null;
    rest: number;
    available: boolean;
    home_position: number | null;
    image: PhotoSpec | null;
  }[];
  selections: {
    id: number;
    name: string;
    description: string;
    sections: number[];
    products: number[];
  }[];
  slides: { id: number; text: string; background: string; text_color: string; image: PhotoSpec }[];
  /** Newest first. */
  news: string[];
  policy: { name: string; source: string };
  user: typeof DEMO_USER;
  orders: OrderFixture[];
}

/** The colours of the stub's drawing: its `bg` gradient and each berry's `g-…` gradient. */
export function coloursOf(svg: string): PhotoColours {
  const gradients = [...svg.matchAll(/<radialGradient id="([^"]+)"[^>]*>(.*?)<\/radialGradient>/g)];
  const stops = (body: string) => [...body.matchAll(/stop-color="([^"]+)"/g)].map(([, c]) => c!);
  const background = gradients.find(([, id]) => id === 'bg');
  const [centre = '#ffffff', tint = '#ffffff'] = background ? stops(background[2]!) : [];
  const berries = gradients
    .filter(([, id]) => id!.startsWith('g-'))
    .map(([, , body]) => stops(body!))
    .filter((colours): colours is [string, string, string] => colours.length === 3);
  return { centre, tint, berries };
}

function photo(file: string, spec: ArtSpec, seed: number, background?: string): PhotoSpec {
  return { file, colours: coloursOf(renderArt(spec, { seed, background })) };
}

const homePosition = (list: number[], id: number): number | null =>
  list.includes(id) ? list.indexOf(id) : null;

export function buildDjangoSeed(): DjangoSeed {
  // Parents before children, so that each row's parent exists when it is saved.
  const depth = (id: number | null): number =>
    id === null ? 0 : 1 + depth(SECTIONS.find((section) => section.id === id)?.parent ?? null);
  const sections = [...SECTIONS].sort((a, b) => depth(a.id) - depth(b.id) || a.id - b.id);
  return {
    sections: sections.map((section) => ({
      id: section.id,
      name: section.name,
      parent: section.parent,
      home_position: homePosition(HOME_SECTIONS, section.id),
      // The seeds are the stub's (stub-server/media.ts): the same drawing, the same colours.
      image: photo(`catalog/section-${section.id}.jpg`, section.art, 1000 + section.id),
    })),
    products: PRODUCTS.map((product) => ({
      id: product.id,
      name: product.name,
      section: product.section,
      unit: product.unit,
      unit_step: product.unit_step,
      price: product.price,
      rest: product.rest,
      available: product.available,
      home_position: homePosition(HOME_PRODUCTS, product.id),
      image: product.art
        ? photo(`catalog/product-${product.id}.jpg`, product.art, product.id)
        : null,
    })),
    selections: SELECTIONS.map((selection) => ({ ...selection })),
    slides: SLIDES.map((slide) => ({
      id: slide.id,
      text: slide.text,
      background: slide.background,
      text_color: slide.text_color,
      image: photo(`carousel/slide-${slide.id}.jpg`, slide.art, 2000 + slide.id, slide.background),
    })),
    news: NEWS.map((item) => item.data_telegram_post),
    policy: {
      name: POLICY_URL.replace(/^\/media\//, ''),
      source: fileURLToPath(new URL('../../../stub-server/fixtures/policy.pdf', import.meta.url)),
    },
    user: DEMO_USER,
    orders: DEMO_ORDERS,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(buildDjangoSeed(), null, 1)}\n`);
}
