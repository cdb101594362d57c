import type { Breadcrumbs, Section } from '../../api/types';
import { paths } from '../../lib/paths';
import { CatalogLayout } from './CatalogLayout';
import { SectionItems } from './EmptySection';

export { LoadFailure as Failed, SectionPending as Pending } from './CatalogLayout';

interface SectionPageProps {
  /** Failed breadcrumbs (null) do not hide the section: its own name stands in for the path. */
  section: [Section, Breadcrumbs | null];
  reload: () => void;
}

export default function SectionPage({ section: [section, breadcrumbs], reload }: SectionPageProps) {
  // section_breadcrumbs ends with the section itself, which is the current page, not a link.
  const crumbs = [
    ...(breadcrumbs ?? [])
      .filter((crumb) => crumb.id !== section.id)
      .map((crumb) => ({ label: crumb.name, href: paths.section(crumb.id) })),
    { label: section.name },
  ];
  return (
    <CatalogLayout
      crumbs={crumbs}
      title={section.name}
      onCrumbsRetry={breadcrumbs ? undefined : reload}
    >
      <SectionItems sections={section.children} products={section.products} />
    </CatalogLayout>
  );
}
