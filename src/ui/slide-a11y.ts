/**
 * Russian role words and a label for one slide of a carousel, e.g. «2 из 5». Apart from the
 * moving carousel's hook (carousel-a11y.tsx), so the cards' rows and the still home carousel of
 * the first view do not bring that hook's code with them.
 */
export function slideA11yProps(index: number, count: number) {
  return { 'aria-roledescription': 'слайд', 'aria-label': `${index + 1} из ${count}` };
}
