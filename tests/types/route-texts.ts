// Checked by `npm run typecheck`, never run: a route's texts and head are typed from its data, so
// one that reads a field its data does not have fails the typecheck (issue 33).
import { sectionQuery } from '../../src/features/catalog/queries';
import { defineRoute, SERVER } from '../../src/ui/route';

const page = () => import('../../src/features/catalog/SectionPage');

export const right = defineRoute({
  path: '/section/:id',
  data: () => ({ queries: { section: sectionQuery(1) } }),
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
  data: () => ({ queries: { section: sectionQuery(1) } }),
  // @ts-expect-error a section has no `title`
  title: ({ section: [section] }) => section.title,
  page,
  server: false,
});

export const titleReadsAnotherQuery = defineRoute({
  path: '/section/:id',
  data: () => ({ queries: { section: sectionQuery(1) } }),
  // @ts-expect-error the route has no `product` query
  title: ({ product }) => product.name,
  page,
  server: false,
});

export const descriptionOfAnotherShape = defineRoute({
  path: '/section/:id',
  data: () => ({ queries: { section: sectionQuery(1) } }),
  title: 'Раздел',
  // @ts-expect-error the section's answer is a pair, not the section itself
  description: ({ section }) => section.name,
  page,
  server: false,
});

export const headReadsWhatIsNotThere = defineRoute({
  path: '/section/:id',
  data: () => ({ queries: { section: sectionQuery(1) } }),
  title: 'Раздел',
  page,
  server: SERVER && {
    // @ts-expect-error a section has no `price`
    head: ({ section }) => ({ image: String(section?.[0].price), type: 'website', jsonLd: [] }),
    indexable: true,
    cache: 'public',
  },
});
