import { type RefObject, useLayoutEffect } from 'react';

/**
 * Keeps what the shopper typed into the server's field before the app took the page over (the
 * app's code comes after the first paint, and the field takes keys meanwhile): as the field is
 * taken over, before anything renders it again with the state's text and wipes it, that text
 * goes to `onType` and becomes the state, as a keystroke would. A field the app drew itself
 * already shows its state's text: nothing happens.
 */
export function useTypedBeforeHydration(
  field: RefObject<HTMLInputElement | null>,
  text: string,
  onType: (text: string) => void,
): void {
  useLayoutEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== text) onType(typed);
    // Once, as the field is taken over: later keys reach its onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
