// Checked by `npm run typecheck`, never run: a route's texts, head and page are typed from its
// data, and its params from its path, so one that reads a field its data does not have fails the
// typecheck (issues 33, 42).
import { productQuery, sectionQuery } from '../../src/features/catalog/queries';
import { defineRoute, type Params, SERVER } from '../../src/ui/route';

const page = () => import('../../src/features/catalog/SectionPage');
// A page that takes no data, for the cases where only another part is wrong: a call with an error
// in it is checked no further, and its page would be said not to fit either.
const pageWithoutData = () => import('../../src/features/session/LoginPage');

export const right = defineRoute({
  path: '/section/:id',
  data: () => ({ critical: { section: sectionQuery(1) } }),
  title: ({ section: [section] }) => section.name,
  description: ({ section: [section, trail] }) => `${section.name}: ${trail?.length ?? 0}`,
  page,
  server: SERVER && {
    head: ({ section }) => ({ image: section?.[0].image ?? '', type: 'website', jsonLd: [] }),
    indexable: true,
    cache: 'public',
  },
});

export const titleReadsWhatIsNotThere = defineRoute({
  path: '/section/:id',
  data: () => ({ critical: { section: sectionQuery(1) } }),
  // @ts-expect-error a section has no `title`
  title: ({ section: [section] }) => section.title,
  page: pageWithoutData,
  server: false,
});

export const titleReadsAnotherQuery = defineRoute({
  path: '/section/:id',
  data: () => ({ critical: { section: sectionQuery(1) } }),
  // @ts-expect-error the route has no `product` query
  title: ({ product }) => product.name,
  page: pageWithoutData,
  server: false,
});

export const descriptionOfAnotherShape = defineRoute({
  path: '/section/:id',
  data: () => ({ critical: { section: sectionQuery(1) } }),
  title: 'Раздел',
  // @ts-expect-error the section's answer is a pair, not the section itself
  description: ({ section }) => section.name,
  page: pageWithoutData,
  server: false,
});

export const headReadsWhatIsNotThere = defineRoute({
  path: '/section/:id',
  data: () => ({ critical: { section: sectionQuery(1) } }),
  title: 'Раздел',
  page: pageWithoutData,
  server: SERVER && {
    // @ts-expect-error a section has no `price`
    head: ({ section }) => ({ image: String(section?.[0].price), type: 'website', jsonLd: [] }),
    indexable: true,
    cache: 'public',
  },
});

export const paramsTypedFromThePath = defineRoute({
  path: '/section/:id',
  // @ts-expect-error the path names `id`, not `slug`
  data: ({ slug }: { slug: string }) => ({ critical: { section: sectionQuery(Number(slug)) } }),
  title: 'Раздел',
  page: pageWithoutData,
  server: false,
});

export const pageOfOtherData = defineRoute({
  path: '/product/:id',
  data: ({ id }: Params<'/product/:id'>) => ({ critical: { product: productQuery(Number(id)) } }),
  title: 'Товар',
  // @ts-expect-error the section's page takes a `section`, which this route does not load
  page,
  server: false,
});
