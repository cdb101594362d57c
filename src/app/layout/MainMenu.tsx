import { IconListDetails, IconMenu2, IconShoppingCart } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { lineCount, useBasket } from '../../features/basket/store';
import { useLoggedIn } from '../../features/session/store';
import { IconButton } from '../../ui/controls/IconButton';
import classes from './MainMenu.module.css';
import { paths } from '../../lib/paths';

const SessionMenuItems = lazy(() => import('./SessionMenuItems'));

/**
 * One menu per page: the button names it by this id. index.html's `<link rel="expect"
 * blocking="render">` names it too: a slow phone paints a page while its HTML is still being
 * parsed, and would draw the header's right-hand group (catalogue, search, menu) with its first
 * item alone at the right edge, then push it left as the rest arrives (a layout shift). The menu
 * is that group's last element, and Chromium paints once an expected element is in the page.
 */
const MENU_ID = 'main-menu';

/**
 * The header's menu (spec §2): `Корзина` while the basket has a line, always `Заказы`, and for a
 * logged-in shopper their name and `Выйти`. A popover the button opens by itself, before the
 * app's code and without it; the app adds the spec's hover delays and the keyboard's ways
 * (menu-popover.ts, loaded once it runs).
 */
export function MainMenu() {
  const { lines } = useBasket();
  const count = lineCount(lines);
  // The server's HTML (and the hydration of it) shows no login.
  const loggedIn = useLoggedIn();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // The enhancement comes when the menu is first reached (a pointer over it, the focus on it):
  // its code is not part of the first view's.
  const enhancing = useRef<Promise<() => void> | null>(null);
  const enhance = () => {
    enhancing.current ??= import('./menu-popover').then(({ enhanceMenu }) =>
      button.current && menu.current ? enhanceMenu(button.current, menu.current) : () => {},
    );
  };
  useEffect(
    () => () => {
      void enhancing.current?.then((remove) => remove());
    },
    [],
  );

  return (
    <>
      <IconButton
        ref={button}
        onPointerEnter={enhance}
        onFocus={enhance}
        variant="subtle"
        size="lg"
        className={classes.button}
        aria-label="Меню"
        aria-haspopup="menu"
        popoverTarget={MENU_ID}
      >
        <IconMenu2 size={22} aria-hidden />
      </IconButton>
      {/* An item chosen: the menu closes (the app's links change the page without a reload).
          Here, not in the enhancement: on a slow phone an item is tapped before that arrives. */}
      <div
        ref={menu}
        id={MENU_ID}
        popover="auto"
        role="menu"
        aria-label="Меню"
        className={classes.dropdown}
        onClick={(event) => {
          if ((event.target as Element).closest('[role="menuitem"]')) menu.current?.hidePopover();
        }}
      >
        {/* Only a logged-in menu has the boundary: none is in the server's HTML, whose
            hydration would otherwise be a render of its own after the rest's. */}
        {loggedIn && (
          <Suspense>
            <SessionMenuItems part="name" />
          </Suspense>
        )}
        {count > 0 && (
          <Link
            href={paths.basket()}
            role="menuitem"
            className={classes.item}
            aria-label={`Корзина, товаров: ${count}`}
          >
            <IconShoppingCart size={18} aria-hidden />
            Корзина
            <span className={classes.badge} aria-hidden>
              {count}
            </span>
          </Link>
        )}
        <Link href={paths.orders()} role="menuitem" className={classes.item}>
          <IconListDetails size={18} aria-hidden />
          Заказы
        </Link>
        {loggedIn && (
          <Suspense>
            <SessionMenuItems part="logout" />
          </Suspense>
        )}
      </div>
    </>
  );
}
