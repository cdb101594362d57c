// Mantine's looks for plain elements, in markup a page repeats tens of times: product and
// section cards, their buttons, carousels' arrows, the home page's blocks. Each Mantine
// component costs the server's render about as much as all the HTML it writes (its props, the
// styles API, inline style variables), and a page of cards holds hundreds of them. The same
// classes on plain elements give the same look at a fraction of the cost; what a component would
// set per element as inline style is in the CSS modules of the markup that uses these.
import { ActionIcon, Anchor, Button, Paper, Text, Title, UnstyledButton } from '@mantine/core';

const classNames = (...names: string[]) => names.join(' ');

/** `Paper`: its radius, and its border with `data-with-border`. */
export const PAPER = Paper.classes.root ?? '';
/** `Text`, a paragraph. */
export const TEXT = classNames('mantine-focus-auto', Text.classes.root ?? '');
/** `Title`: set its size's `--title-fw`, `--title-fz` and `--title-lh`. */
export const TITLE = Title.classes.root ?? '';
/** `Anchor`: a link in the anchor colour; set `data-underline="hover"`. */
export const ANCHOR = classNames(TEXT, Anchor.classes.root ?? '');
/** `Button`'s root; `BUTTON_ACTIVE` as well while it can be pressed (its pressed look). */
export const BUTTON = classNames(
  'mantine-focus-auto',
  Button.classes.root ?? '',
  UnstyledButton.classes.root ?? '',
);
export const BUTTON_ACTIVE = 'mantine-active';
export const BUTTON_INNER = Button.classes.inner ?? '';
export const BUTTON_LABEL = Button.classes.label ?? '';
/** `ActionIcon`'s root (with `BUTTON_ACTIVE`), and the span around its icon. */
export const ACTION_ICON = classNames(
  'mantine-focus-auto',
  ActionIcon.classes.root ?? '',
  UnstyledButton.classes.root ?? '',
);
export const ACTION_ICON_ICON = ActionIcon.classes.icon ?? '';
