import { Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { FailureCase } from '../../api/call-failure';
import { type Crumb, BreadcrumbsSkeleton, PageBreadcrumbs } from '../../ui/Breadcrumbs';
import { Button } from '../../ui/controls/Button';
import { ErrorState } from '../../ui/ErrorState';
import classes from './CatalogLayout.module.css';
import { ProductGridSkeleton } from './ProductGrid';

/**
 * The breadcrumbs call failed: the page itself is there (a shopper can still buy), the path
 * above it is not. A short note on the breadcrumbs' line says so and offers `Повторить`.
 */
function CrumbsFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" c="dimmed">
        Путь по каталогу не загрузился
      </Text>
      <Button
        size="compact-xs"
        variant="subtle"
        leftSection={<IconRefresh size={12} aria-hidden />}
        onClick={onRetry}
      >
        Повторить
      </Button>
    </Group>
  );
}

/** Breadcrumbs, the page's title, then its content. */
export function CatalogLayout({
  crumbs,
  title,
  onCrumbsRetry,
  children,
}: {
  crumbs: Crumb[];
  title: string;
  /** Set when the breadcrumbs call failed: `crumbs` is then only the page itself. */
  onCrumbsRetry?: () => void;
  children: ReactNode;
}) {
  return (
    <Stack gap="md">
      {onCrumbsRetry ? (
        <Group gap="xs" wrap="wrap">
          <PageBreadcrumbs items={crumbs} />
          <CrumbsFailed onRetry={onCrumbsRetry} />
        </Group>
      ) : (
        <PageBreadcrumbs items={crumbs} />
      )}
      <Title order={1} className={classes.title}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The same frame while the data loads: the breadcrumbs' line, the title's line, the content. */
export function CatalogLayoutSkeleton({ children }: { children: ReactNode }) {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Загрузка">
      <BreadcrumbsSkeleton />
      <Skeleton className={classes.titleSkeleton} width="50%" aria-hidden />
      {children}
    </Stack>
  );
}

/** A section's or selection's page while it loads. */
export function SectionPending() {
  return (
    <CatalogLayoutSkeleton>
      <ProductGridSkeleton sections={2} products={6} />
    </CatalogLayoutSkeleton>
  );
}

/**
 * A failed load, which offers a retry. (A 404 is the item's 404 page: its route sends the
 * shopper there, spec §8.)
 */
export function LoadFailure({ failure, onRetry }: { failure: FailureCase; onRetry: () => void }) {
  return (
    <Stack gap="md">
      <PageBreadcrumbs items={[]} />
      <ErrorState failure={failure} onRetry={onRetry} />
    </Stack>
  );
}
