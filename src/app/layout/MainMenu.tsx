import { ActionIcon } from '@mantine/core';
import { IconMenu2 } from '@tabler/icons-react';
import { lazy, startTransition, Suspense, useCallback, useEffect, useRef, useState } from 'react';

// Spec §2: opens after 300 ms and closes after 250 ms; `Корзина` only while the cart has a line.
export const MENU_OPEN_DELAY = 300;
export const MENU_CLOSE_DELAY = 250;

// Mantine's Menu brings Popover and floating-ui (about 25 KB gzip): too much for the first view
// of every page. The button is drawn at once; the menu itself loads on the shopper's first sign
// of interest in it (pointer over it, a touch, keyboard focus or a click).
const MainMenuDropdown = lazy(() => import('./MainMenuDropdown'));

export function MainMenu() {
  const [wanted, setWanted] = useState(false);
  const [opened, setOpened] = useState(false);
  // Until the menu has loaded this button plays its part: a hover or click that came before
  // still opens it MENU_OPEN_DELAY after it began, however long the load took.
  const openTimer = useRef<number | undefined>(undefined);
  const menuReady = useRef(false);
  const focused = useRef(false);

  useEffect(() => () => window.clearTimeout(openTimer.current), []);

  const load = () => {
    // A transition keeps this very button on screen while the menu loads, instead of a fallback.
    if (!wanted) startTransition(() => setWanted(true));
  };
  const openSoon = () => {
    load();
    if (menuReady.current || openTimer.current !== undefined) return;
    openTimer.current = window.setTimeout(() => {
      openTimer.current = undefined;
      setOpened(true);
    }, MENU_OPEN_DELAY);
  };
  const cancelOpen = () => {
    window.clearTimeout(openTimer.current);
    openTimer.current = undefined;
  };
  const buttonRef = useRef<HTMLButtonElement>(null);
  const onReady = useCallback(() => {
    menuReady.current = true;
    // The button drawn before is gone; a keyboard user must not lose their place.
    const active = document.activeElement;
    if (focused.current && (active === null || active === document.body)) {
      buttonRef.current?.focus();
    }
  }, []);

  const button = (
    <ActionIcon
      ref={buttonRef}
      variant="subtle"
      size="lg"
      aria-label="Меню"
      aria-haspopup="menu"
      aria-expanded={false}
      onMouseEnter={openSoon}
      onMouseLeave={cancelOpen}
      onClick={openSoon}
      onTouchStart={load}
      onFocus={() => {
        focused.current = true;
        load();
      }}
      onBlur={() => (focused.current = false)}
    >
      <IconMenu2 size={22} aria-hidden />
    </ActionIcon>
  );
  // The boundary is there from the start, so the transition can keep its content in place.
  return (
    <Suspense fallback={button}>
      {wanted ? (
        <MainMenuDropdown target={button} opened={opened} onChange={setOpened} onReady={onReady} />
      ) : (
        button
      )}
    </Suspense>
  );
}
