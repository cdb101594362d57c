// Notices for failures that have no place of their own on the screen. Mantine's notifications
// (their store, the notice with its button) load with the first one: most visits show none.
import type * as NoticesModule from './notices';

type Notices = typeof NoticesModule;

// The tab's one notifications module, loaded once.
// eslint-disable-next-line no-restricted-syntax -- module state: the module's load on its way
let notices: Promise<Notices> | undefined;
// eslint-disable-next-line no-restricted-syntax -- module state: whether it has come
let loaded = false;
const listeners = new Set<() => void>();

function load(): Promise<Notices> {
  notices ??= import('./notices').then(
    (module) => {
      loaded = true;
      for (const listener of listeners) listener();
      return module;
    },
    (error: unknown) => {
      // Offline: the next notice tries again.
      notices = undefined;
      throw error;
    },
  );
  return notices;
}

/** Whether a notice has been shown, so the notifications container is needed. */
export const noticesLoaded = (): boolean => loaded;

export function onNoticesLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A short Russian message about something that failed; the screen itself stays as it was. */
export function notifyError(message: string): void {
  load().then(
    (module) => module.notifyError(message),
    () => {},
  );
}

/**
 * A failure with `Повторить` that stays until the shopper retries or closes it (e.g. the basket
 * loaded at start-up). One notice per `id`: a second failure replaces the first.
 */
export function showRetryNotice(id: string, message: string, onRetry: () => void): void {
  load().then(
    (module) => module.showRetryNotice(id, message, onRetry),
    () => {},
  );
}

export function hideRetryNotice(id: string): void {
  // Nothing was shown before the notices loaded; what is loading is hidden once it is shown.
  notices?.then(
    (module) => module.hideRetryNotice(id),
    () => {},
  );
}
