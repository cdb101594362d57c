import {
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ToggleEvent,
  useEffect,
  useRef,
} from 'react';

// Spec §2 and §9: the menu opens 300 ms after the pointer reaches it and closes 250 ms after it
// leaves.
export const MENU_OPEN_DELAY = 300;
export const MENU_CLOSE_DELAY = 250;

/**
 * What the app adds to a menu the browser opens by itself (a popover its button targets, which
 * works before the app's code and without it: a click or a key toggles it, a click elsewhere or
 * Escape closes it): the spec's hover delays, the arrow keys between the items, the focus on the
 * first item when a key opened it, and back on the button when the menu closes around it (the
 * WAI-ARIA menu button pattern).
 */
export function useMenuPopover() {
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const timer = useRef(0);
  // Opened by a click, a tap or a key: it stays open when the pointer leaves.
  const pinned = useRef(false);
  const byKey = useRef(false);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const isOpen = () => menu.current?.matches(':popover-open') === true;
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  // A mouse only (a finger's tap is a click, and the click decides). Entering the button or the
  // menu cancels a pending close; leaving either cancels a pending open.
  const onPointer = (event: PointerEvent) => {
    const entering = event.type === 'pointerenter';
    window.clearTimeout(timer.current);
    if (event.pointerType !== 'mouse' || isOpen() === entering) return;
    if (!entering && pinned.current) return;
    timer.current = window.setTimeout(
      () => menu.current?.togglePopover(entering),
      entering ? MENU_OPEN_DELAY : MENU_CLOSE_DELAY,
    );
  };
  const pointer = { onPointerEnter: onPointer, onPointerLeave: onPointer };

  const buttonProps = {
    ref: button,
    ...pointer,
    onClick: (event: MouseEvent) => {
      window.clearTimeout(timer.current);
      // Opened by the pointer resting on it: the click keeps it open, not the browser's toggle.
      if (isOpen() && !pinned.current) event.preventDefault();
      // Else the browser toggles it; a click with no pointer came from Enter or Space.
      else byKey.current = event.detail === 0;
      pinned.current = true;
    },
  };

  const menuProps = {
    ref: menu,
    ...pointer,
    onBeforeToggle: (event: ToggleEvent) => {
      if (event.newState !== 'closed') return;
      pinned.current = false;
      // The focus is on an item about to disappear: back to the button.
      if (menu.current?.contains(document.activeElement)) button.current?.focus();
    },
    onToggle: (event: ToggleEvent) => {
      if (event.newState === 'open' && byKey.current) items()[0]?.focus();
      byKey.current = false;
    },
    onKeyDown: (event: KeyboardEvent) => {
      const all = items();
      const at = all.indexOf(document.activeElement as HTMLElement);
      const to = { ArrowDown: at + 1, ArrowUp: Math.max(at, 0) - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      // Round and round: below the last item is the first, above the first the last.
      all.at(to % all.length)?.focus();
    },
    // An item chosen: the menu closes (the app's links change the page without a reload).
    onClick: (event: MouseEvent) => {
      if ((event.target as Element).closest('[role="menuitem"]'))
        menu.current?.togglePopover(false);
    },
  };

  return { buttonProps, menuProps };
}
