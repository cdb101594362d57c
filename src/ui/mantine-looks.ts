// Mantine's looks for plain elements: the cards and their buttons, carousels' arrows and the
// home page's blocks, which a page repeats tens of times, and the page frame's controls (header,
// footer, cookie notice, basket control), which every page has. Each Mantine component costs the
// server's render about as much as all the HTML it writes (its props, the styles API, inline style
// variables); Button and ActionIcon also bring their Loader and Transition into every page's
// code. The same classes on plain elements give the same look at a fraction of the cost; what a
// component would set per element as inline style is in the CSS modules of the markup that uses
// these (ControlLooks.module.css for the frame's controls).
//
// The names are Mantine's own (its styles.css), written out: reading them from `Button.classes`
// would bring the component's code back. tests/unit/ui/mantine-looks.test.ts holds them equal to
// Mantine's, so an upgrade that renames one fails there.

const classNames = (...names: string[]) => names.join(' ');

/** Mantine's class names (`Button.classes.root`...), as its CSS modules export them. */
export const MANTINE_CLASSES = {
  paper: 'm_1b7284a3',
  text: 'm_b6d8b162',
  title: 'm_8a5d1357',
  anchor: 'm_849cf0da',
  unstyledButton: 'm_87cf2631',
  button: 'm_77c9d27d',
  buttonInner: 'm_80f1301b',
  buttonLabel: 'm_811560b9',
  buttonSection: 'm_a74036a',
  actionIcon: 'm_8d3f4000',
  actionIconIcon: 'm_8d3afb97',
} as const;

const M = MANTINE_CLASSES;

/** `Paper`: its radius, and its border with `data-with-border`. */
export const PAPER = M.paper;
/** `Text`, a paragraph. */
export const TEXT = classNames('mantine-focus-auto', M.text);
/** `Title`: set its size's `--title-fw`, `--title-fz` and `--title-lh`. */
export const TITLE = M.title;
/** `Anchor`: a link in the anchor colour; set `data-underline="hover"`. */
export const ANCHOR = classNames(TEXT, M.anchor);
/** `Button`'s root; `BUTTON_ACTIVE` as well while it can be pressed (its pressed look). */
export const BUTTON = classNames('mantine-focus-auto', M.button, M.unstyledButton);
export const BUTTON_ACTIVE = 'mantine-active';
export const BUTTON_INNER = M.buttonInner;
export const BUTTON_LABEL = M.buttonLabel;
/** The span around an icon before the label; the button carries `data-with-left-section`. */
export const BUTTON_SECTION = M.buttonSection;
/** `ActionIcon`'s root (with `BUTTON_ACTIVE`), and the span around its icon. */
export const ACTION_ICON = classNames('mantine-focus-auto', M.actionIcon, M.unstyledButton);
export const ACTION_ICON_ICON = M.actionIconIcon;
