// One order per checkout attempt (contracts/README.md, "One order per checkout"): the first
// order_commit with a visitor's Idempotency-Key is placed, a repeat gets its answer again, and a
// repeat while the first is still being placed gets 409. In memory, as a cache table would hold
// them: two instances of the shop share this one stub, as they share one Django.
import { LRUCache } from 'lru-cache';

export interface KeptAnswer {
  status: number;
  body: unknown;
}

/** What to do with a request that carries a key. */
export type Claim =
  /** The first with this key: place it, then `finish` (or `release` on a server error). */
  | { kind: 'first' }
  /** A repeat: answer this. */
  | { kind: 'repeat'; answer: KeptAnswer }
  /** A repeat while the first is still being placed. */
  | { kind: 'in-flight' };

/** How long a key is kept: a day covers any retry of one checkout. */
export const ATTEMPT_KEPT_MS = 24 * 60 * 60 * 1000;
/** The first request still unanswered after this was lost (its process died): a repeat retries. */
export const ATTEMPT_LOST_MS = 60 * 1000;
/** Django's CharField for it would be 255 long. */
export const ATTEMPT_KEY_MAX = 255;
export const ORDER_IN_FLIGHT = 'Заказ с этим ключом ещё оформляется. Повторите запрос чуть позже.';

interface Attempt {
  startedAt: number;
  answer: KeptAnswer | null;
}

export class OrderAttempts {
  private readonly attempts: LRUCache<string, Attempt>;

  constructor(private readonly now: () => number = Date.now) {
    this.attempts = new LRUCache({
      max: 100_000,
      ttl: ATTEMPT_KEPT_MS,
      ttlResolution: 0,
      perf: { now },
    });
  }

  claim(owner: string, key: string): Claim {
    const id = JSON.stringify([owner, key]);
    const attempt = this.attempts.get(id);
    if (attempt?.answer) return { kind: 'repeat', answer: attempt.answer };
    if (attempt && this.now() - attempt.startedAt < ATTEMPT_LOST_MS) return { kind: 'in-flight' };
    this.attempts.set(id, { startedAt: this.now(), answer: null });
    return { kind: 'first' };
  }

  /** The first request's answer, for its repeats. */
  finish(owner: string, key: string, answer: KeptAnswer): void {
    const id = JSON.stringify([owner, key]);
    const attempt = this.attempts.get(id);
    if (attempt) attempt.answer = answer;
  }

  /** The first request failed on the server's side: a repeat places the order afresh. */
  release(owner: string, key: string): void {
    this.attempts.delete(JSON.stringify([owner, key]));
  }

  clear(): void {
    this.attempts.clear();
  }
}
