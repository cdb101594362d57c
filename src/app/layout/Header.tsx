import { Container, Group } from '@mantine/core';
import { IconLayoutGrid, IconSearch } from '@tabler/icons-react';
import { Link, useLocation, useSearch } from 'wouter';
import { CATALOG_TITLE } from '../../features/catalog/texts';
import { searchLink } from '../../features/search/search-link';
import { Button } from '../../ui/controls/Button';
import { IconButton } from '../../ui/controls/IconButton';
import { Logo } from '../../ui/Logo';
import classes from './Layout.module.css';
import { MainMenu } from './MainMenu';
import { useOnPage } from './useOnPage';
import { paths } from '../../lib/paths';

export function Header() {
  const onSearch = useOnPage([paths.search.pattern], { below: true });
  const [location] = useLocation();
  const search = useSearch();
  // The search's back arrow leads back to this page: its address rides in the link.
  const toSearch = searchLink(search ? `${location}?${search}` : location);
  return (
    <header className={classes.header}>
      <Container size="lg">
        <Group className={classes.headerInner} justify="space-between" wrap="nowrap">
          <Link href={paths.home()} aria-label="На главную" style={{ textDecoration: 'none' }}>
            <Logo />
          </Link>
          <Group gap="xs" wrap="nowrap">
            <Button
              component={Link}
              href={paths.catalog()}
              variant="light"
              leftSection={<IconLayoutGrid size={18} aria-hidden />}
            >
              {CATALOG_TITLE}
            </Button>
            {!onSearch && (
              <IconButton
                component={Link}
                href={toSearch}
                variant="subtle"
                size="lg"
                aria-label="Поиск"
              >
                <IconSearch size={20} aria-hidden />
              </IconButton>
            )}
            <MainMenu />
          </Group>
        </Group>
      </Container>
    </header>
  );
}
