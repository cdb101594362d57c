// The backend's connections shared fairly (issue 39). One instance may hold BACKEND_MAX_SOCKETS
// calls to the backend at once for each of its two users (the server's own calls, and the proxy
// of the browser's /api and /media); an address that floods the shop with uncached searches once
// took all of them, and other shoppers' basket changes failed. Now:
//   - a quarter of the connections is kept for the shopper's own calls (their basket, orders and
//     login, and every write): the catalogue's and the search's calls never hold those;
//   - one address holds at most a quarter of them at once; its further calls wait for its own to
//     end (until their deadline), never for anyone else's;
//   - calls waiting while the backend is busy go in turn, one address after another.
// The address is the visitor's as express reads it through the proxies it trusts (nginx on
// loopback); behind a load balancer, nginx's set_real_ip_from lines make it the visitor's.
export class BackendBusyError extends Error {
  constructor(max: number) {
    super(`all ${max} connections to the backend are in use`);
    this.name = 'BackendBusyError';
  }
}

/** A call's claim on the backend: the shopper's own (kept connections), or anyone's. */
export type CallKind = 'own' | 'public';

export interface ShareLimits {
  /** Calls at once, in all (BACKEND_MAX_SOCKETS). */
  slots: number;
  /** Of them, those only the shopper's own calls may take. */
  reserved: number;
  /** The most one address may hold at once. */
  perAddress: number;
}

/** The split of BACKEND_MAX_SOCKETS the shop runs with: a quarter kept, a quarter per address. */
export function shareLimits(slots: number): ShareLimits {
  const quarter = Math.floor(slots / 4);
  return { slots, reserved: quarter, perAddress: Math.max(1, quarter) };
}

interface Waiter {
  kind: CallKind;
  grant(): void;
}

export interface TakeOptions {
  /** Gives up the wait (the call's deadline, or its visitor gone): the take rejects with its reason. */
  signal?: AbortSignal;
  /**
   * Wait, too, while the instance has no connection free for the call: the proxy does, within
   * its deadline. The server's own calls fail at once instead (BackendBusyError), so that a page
   * answers with what it has rather than queueing behind calls that hang.
   */
  waitForFree?: boolean;
}

export class BackendShare {
  readonly limits: ShareLimits;
  private inFlight = 0;
  private publicInFlight = 0;
  private readonly held = new Map<string, number>();
  /** Calls waiting, by address, each address's in its order; addresses in turn (Map order). */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(limits: ShareLimits) {
    this.limits = limits;
  }

  /** Calls under way now. */
  count(): number {
    return this.inFlight;
  }

  /** Calls waiting for a connection now. */
  queued(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.length;
    return count;
  }

  /**
   * A connection for a call of `kind` for `address`, once the share allows it; resolves with the
   * function that gives it back (once the call has ended, its answer read or dropped).
   */
  take(kind: CallKind, address: string, options: TakeOptions = {}): Promise<() => void> {
    const { signal, waitForFree = false } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const ahead = this.waiting.get(address)?.some((waiter) => waiter.kind === kind) ?? false;
    if (!ahead && this.fits(kind, address)) return Promise.resolve(this.grant(kind, address));
    if (!waitForFree && this.heldBy(address) < this.limits.perAddress) {
      // The address has room: it is the instance that has none.
      return Promise.reject(new BackendBusyError(this.limits.slots));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        kind,
        grant: () => {
          signal?.removeEventListener('abort', abort);
          resolve(this.grant(kind, address));
        },
      };
      const abort = () => {
        this.leave(address, waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      const waiters = this.waiting.get(address);
      if (waiters) waiters.push(waiter);
      else this.waiting.set(address, [waiter]);
    });
  }

  private heldBy(address: string): number {
    return this.held.get(address) ?? 0;
  }

  private fits(kind: CallKind, address: string): boolean {
    const { slots, reserved, perAddress } = this.limits;
    if (this.inFlight >= slots || this.heldBy(address) >= perAddress) return false;
    return kind === 'own' || this.publicInFlight < slots - reserved;
  }

  private grant(kind: CallKind, address: string): () => void {
    this.inFlight += 1;
    if (kind === 'public') this.publicInFlight += 1;
    this.held.set(address, this.heldBy(address) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.inFlight -= 1;
      if (kind === 'public') this.publicInFlight -= 1;
      const left = this.heldBy(address) - 1;
      if (left > 0) this.held.set(address, left);
      else this.held.delete(address);
      this.next();
    };
  }

  private leave(address: string, waiter: Waiter): void {
    const waiters = this.waiting.get(address);
    if (!waiters) return;
    const index = waiters.indexOf(waiter);
    if (index >= 0) waiters.splice(index, 1);
    if (waiters.length === 0) this.waiting.delete(address);
  }

  /** Lets the waiting calls that fit now go, one address after another. */
  private next(): void {
    let granted = true;
    while (granted) {
      granted = false;
      for (const [address, waiters] of this.waiting) {
        // Each kind in its order: an own call never waits behind a public one that cannot go.
        const index = waiters.findIndex((waiter) => this.fits(waiter.kind, address));
        if (index < 0) continue;
        const [first] = waiters.splice(index, 1);
        // The address goes to the back of the turn.
        this.waiting.delete(address);
        if (waiters.length > 0) this.waiting.set(address, waiters);
        first?.grant();
        granted = true;
        break;
      }
    }
  }
}
