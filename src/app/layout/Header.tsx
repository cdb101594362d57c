import { Container, Group } from '@mantine/core';
import { IconLayoutGrid, IconSearch } from '@tabler/icons-react';
import { Link, useLocation, useSearch } from 'wouter';
import { CATALOG_TITLE } from '../../features/catalog/texts';
import { searchLink } from '../../features/search/search-link';
import { ButtonContent } from '../../ui/ButtonContent';
import looks from '../../ui/ControlLooks.module.css';
import { Logo } from '../../ui/Logo';
import { ACTION_ICON, ACTION_ICON_ICON, BUTTON, BUTTON_ACTIVE } from '../../ui/mantine-looks';
import classes from './Layout.module.css';
import { MainMenu } from './MainMenu';
import { useOnPage } from './useOnPage';

export function Header() {
  const onSearch = useOnPage(['/search'], { below: true });
  const [location] = useLocation();
  const search = useSearch();
  // The search's back arrow leads back to this page: its address rides in the link.
  const toSearch = searchLink(search ? `${location}?${search}` : location);
  return (
    <header className={classes.header}>
      <Container size="lg">
        <Group className={classes.headerInner} justify="space-between" wrap="nowrap">
          <Link href="/" aria-label="На главную" style={{ textDecoration: 'none' }}>
            <Logo />
          </Link>
          <Group gap="xs" wrap="nowrap">
            {/* Mantine's light Button and subtle ActionIcon, drawn by plain links: every page
                has them, and the components' code would be in every page's. */}
            <Link
              href="/catalog"
              className={`${BUTTON} ${BUTTON_ACTIVE} ${looks.buttonLight}`}
              data-with-left-section
            >
              <ButtonContent icon={<IconLayoutGrid size={18} aria-hidden />}>
                {CATALOG_TITLE}
              </ButtonContent>
            </Link>
            {!onSearch && (
              <Link
                href={toSearch}
                className={`${ACTION_ICON} ${BUTTON_ACTIVE} ${looks.iconSubtle}`}
                aria-label="Поиск"
              >
                <span className={ACTION_ICON_ICON}>
                  <IconSearch size={20} aria-hidden />
                </span>
              </Link>
            )}
            <MainMenu />
          </Group>
        </Group>
      </Container>
    </header>
  );
}
