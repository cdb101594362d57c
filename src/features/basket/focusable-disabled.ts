/**
 * Props that make a control of a basket line disabled while it keeps the keyboard focus. The
 * `disabled` attribute would make the browser drop the focus of the control the shopper has just
 * pressed (plus, while its line saves; plus, at the maximum), leaving a keyboard shopper on the
 * page itself. `aria-disabled` tells assistive technology (and tests) that it is disabled,
 * `data-disabled` gives it the disabled look (ui/controls); its own handler ignores presses meanwhile.
 */
export function focusableDisabled(disabled: boolean): {
  'aria-disabled'?: true;
  'data-disabled'?: true;
} {
  return disabled ? { 'aria-disabled': true, 'data-disabled': true } : {};
}
