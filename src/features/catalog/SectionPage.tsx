import { useRouteData } from '../../ui/route';
import { CatalogLayout, CatalogLayoutSkeleton, LoadFailure } from './CatalogLayout';
import { EmptySection } from './EmptySection';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { sectionRoute } from './section-route';

export default function SectionPage() {
  // Failed breadcrumbs (null) do not hide the section: its own name stands in for the path.
  const { section: state } = useRouteData(sectionRoute);

  if (state.status === 'loading') {
    return (
      <CatalogLayoutSkeleton>
        <ProductGridSkeleton sections={2} products={6} />
      </CatalogLayoutSkeleton>
    );
  }
  if (state.status === 'error') {
    return <LoadFailure failure={state.failure} onRetry={state.reload} />;
  }
  const [section, breadcrumbs] = state.data;
  // section_breadcrumbs ends with the section itself, which is the current page, not a link.
  const crumbs = [
    ...(breadcrumbs ?? [])
      .filter((crumb) => crumb.id !== section.id)
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
