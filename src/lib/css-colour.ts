// A colour the backend sends for the shop to paint with (a home slide's background and text):
// text that goes into a `style` attribute, so only a colour's own shape passes, and no text that
// could close the declaration and add another (`red;position:fixed`, `url(…)`).

/**
 * The forms a colour may take: #rgb, #rgba, #rrggbb or #rrggbbaa; rgb(), rgba(), hsl() or
 * hsla() of numbers, percents and angles. A colour's name is not among them: the list of names
 * would cost the home page's first view more than the check itself.
 */
const COLOUR_FORMS = [
  /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i,
  /^(rgb|hsl)a?\(\s*[\d.]+(%|deg)?(\s*[,/\s]\s*[\d.]+%?){2,3}\s*\)$/i,
];

/** `value` when it is a colour of COLOUR_FORMS, else null. */
export function cssColour(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const colour = value.trim();
  return COLOUR_FORMS.some((form) => form.test(colour)) ? colour : null;
}
