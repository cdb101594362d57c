import { Anchor, Breadcrumbs, Group, Skeleton, Text } from '@mantine/core';
import { Link } from 'wouter';
import classes from './Breadcrumbs.module.css';

export interface Crumb {
  label: string;
  /** Missing for the current page, which is not a link. */
  href?: string;
}

export const HOME_CRUMB: Crumb = { label: 'Главная', href: '/' };

/** The path to the current page; it always begins with the home entry (spec §2). */
export function PageBreadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Навигационная цепочка">
      <Breadcrumbs
        separator="›"
        separatorMargin={6}
        fz="sm"
        classNames={{ breadcrumb: classes.crumb }}
      >
        {[HOME_CRUMB, ...items].map((crumb, index) =>
          crumb.href ? (
            <Anchor key={index} component={Link} href={crumb.href} fz="sm">
              {crumb.label}
            </Anchor>
          ) : (
            <Text key={index} span fz="sm" c="dimmed" aria-current="page">
              {crumb.label}
            </Text>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}

/** Holds the breadcrumbs' line while they load. */
export function BreadcrumbsSkeleton() {
  return (
    <Group gap={6} h={20} aria-hidden>
      <Skeleton height={12} width={64} />
      <Skeleton height={12} width={110} />
    </Group>
  );
}
