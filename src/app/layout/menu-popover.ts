// Spec §2 and §9: the menu opens 300 ms after the pointer reaches it and closes 250 ms after it
// leaves.
export const MENU_OPEN_DELAY = 300;
export const MENU_CLOSE_DELAY = 250;

/**
 * What the app adds to a menu the browser opens by itself (a popover its button targets, which
 * works before the app's code and without it: a click or a key toggles it, a click elsewhere or
 * Escape closes it): the spec's hover delays, the arrow keys between the items, the focus on the
 * first item when a key opened it, and back on the button when the menu closes around it (the
 * WAI-ARIA menu button pattern). An item chosen closes it from MainMenu itself. Its own chunk, loaded once the app runs: the first view's code
 * does not carry it. Returns what takes it off again.
 */
export function enhanceMenu(button: HTMLElement, menu: HTMLElement): () => void {
  let timer = 0;
  // Opened by a click, a tap or a key: it stays open when the pointer leaves.
  let pinned = false;
  let byKey = false;

  const isOpen = () => menu.matches(':popover-open');
  const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];

  // A mouse only (a finger's tap is a click, and the click decides). Entering the button or the
  // menu cancels a pending close; leaving either cancels a pending open.
  const onPointer = (event: PointerEvent) => {
    const entering = event.type === 'pointerenter';
    window.clearTimeout(timer);
    if (event.pointerType !== 'mouse' || isOpen() === entering) return;
    if (!entering && pinned) return;
    timer = window.setTimeout(
      () => menu.togglePopover(entering),
      entering ? MENU_OPEN_DELAY : MENU_CLOSE_DELAY,
    );
  };
  const onButtonClick = (event: MouseEvent) => {
    window.clearTimeout(timer);
    // Opened by the pointer resting on it: the click keeps it open, not the browser's toggle.
    if (isOpen() && !pinned) event.preventDefault();
    // Else the browser toggles it; a click with no pointer came from Enter or Space.
    else byKey = event.detail === 0;
    pinned = true;
  };
  const onBeforeToggle = (event: Event) => {
    if ((event as ToggleEvent).newState !== 'closed') return;
    pinned = false;
    // The focus is on an item about to disappear: back to the button.
    if (menu.contains(document.activeElement)) button.focus();
  };
  const onToggle = (event: Event) => {
    if ((event as ToggleEvent).newState === 'open' && byKey) items()[0]?.focus();
    byKey = false;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: at + 1, ArrowUp: Math.max(at, 0) - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    // Round and round: below the last item is the first, above the first the last.
    all.at(to % all.length)?.focus();
  };

  const listeners: [HTMLElement, string, (event: never) => void][] = [
    [button, 'pointerenter', onPointer],
    [button, 'pointerleave', onPointer],
    [button, 'click', onButtonClick],
    [menu, 'pointerenter', onPointer],
    [menu, 'pointerleave', onPointer],
    [menu, 'beforetoggle', onBeforeToggle],
    [menu, 'toggle', onToggle],
    [menu, 'keydown', onKeyDown],
  ];
  for (const [target, type, listener] of listeners) {
    target.addEventListener(type, listener as EventListener);
  }
  // Loaded as the pointer reached the button: that pointer's hover counts.
  if (button.matches(':hover') && !isOpen()) {
    timer = window.setTimeout(() => menu.togglePopover(true), MENU_OPEN_DELAY);
  }
  // Loaded as the focus reached the button: a key that opened the menu meanwhile takes it in.
  if (isOpen() && document.activeElement === button) items()[0]?.focus();
  menu.dataset.enhanced = '';
  return () => {
    delete menu.dataset.enhanced;
    window.clearTimeout(timer);
    for (const [target, type, listener] of listeners) {
      target.removeEventListener(type, listener as EventListener);
    }
  };
}
