import { useLoad } from '../../ui/useLoad';
import { CatalogLayout, CatalogLayoutSkeleton, LoadFailure, WithCatalogId } from './CatalogLayout';
import { EmptySection } from './EmptySection';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { sectionQuery } from './queries';

function SectionView({ id }: { id: number }) {
  // The query's key reloads the page when only the id changes (a child section, a breadcrumb).
  // Failed breadcrumbs (null) do not hide the section: its own name stands in for the path.
  const state = useLoad(sectionQuery(id));

  if (state.status === 'loading') {
    return (
      <CatalogLayoutSkeleton>
        <ProductGridSkeleton sections={2} products={6} />
      </CatalogLayoutSkeleton>
    );
  }
  if (state.status === 'error') {
    return (
      <LoadFailure kind="section" id={id} httpStatus={state.httpStatus} onRetry={state.reload} />
    );
  }
  const [section, breadcrumbs] = state.data;
  // section_breadcrumbs ends with the section itself, which is the current page, not a link.
  const crumbs = [
    ...(breadcrumbs ?? [])
      .filter((crumb) => crumb.id !== id)
      .map((crumb) => ({ label: crumb.name, href: `/section/${crumb.id}` })),
    { label: section.name },
  ];
  const empty = section.children.length === 0 && section.products.length === 0;
  return (
    <CatalogLayout
      crumbs={crumbs}
      title={section.name}
      onCrumbsRetry={breadcrumbs ? undefined : state.reload}
    >
      {empty ? (
        <EmptySection />
      ) : (
        <ProductGrid sections={section.children} products={section.products} eager />
      )}
    </CatalogLayout>
  );
}

export default function SectionPage() {
  return <WithCatalogId kind="section">{(id) => <SectionView id={id} />}</WithCatalogId>;
}
