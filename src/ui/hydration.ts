// What a part of the page needs to know about React taking the server's HTML over.
import { type RefObject, useLayoutEffect, useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * What the console says when React gave up hydrating a part of the server's page and drew it anew
 * (hydrateRoot's onRecoverableError): a field there loses what the shopper typed and the focus.
 * Said in every build; the e2e tests fail on it (tests/e2e/browser.ts).
 */
export const REDRAWN_AT_START = 'React drew a part of the page anew while taking it over:';

export function reportRedrawn(error: unknown): void {
  console.error(REDRAWN_AT_START, error);
}

/**
 * False while React hydrates the server's HTML (and on the server), true after. A part of the
 * page that shows what only the browser knows (the visitor's basket) renders as the server did
 * until then: a part hydrated late (a Suspense boundary) would otherwise meet data that arrived
 * in between, and not match.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

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

/**
 * The form's fields as the page holds them when the app takes it over (what the shopper typed,
 * ticked or chose before), given once to `onTakeOver`, as the browser would post them.
 */
export function useFormBeforeHydration(
  form: RefObject<HTMLFormElement | null>,
  onTakeOver: (fields: Record<string, string>) => void,
): void {
  useLayoutEffect(() => {
    if (!form.current) return;
    const fields: Record<string, string> = {};
    new FormData(form.current).forEach((value, name) => {
      if (typeof value === 'string') fields[name] = value;
    });
    onTakeOver(fields);
    // Once, as the form is taken over: later changes reach its handlers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
