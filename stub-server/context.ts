// What every route module receives: the store and the test-only switches.
import type { Store } from './db.ts';
import type { FaultRegistry } from './faults.ts';
import type { OrderAttempts } from './order-attempts.ts';

/** Switches only the /__control endpoints change; they live in memory, not in the data file. */
export interface StubSettings {
  /** Django-style anti-forgery check on unsafe /api requests (default on). */
  csrf: boolean;
  /** The session given to requests without a `sessionid` cookie (default: a new one each time). */
  fixedSession: string | null;
}

export interface StubContext {
  store: Store;
  settings: StubSettings;
  faults: FaultRegistry;
  /** The checkout attempts' keys and first answers (in memory, like the faults). */
  attempts: OrderAttempts;
}

export const defaultSettings = (): StubSettings => ({ csrf: true, fixedSession: null });
