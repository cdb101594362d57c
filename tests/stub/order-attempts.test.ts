// The stub's memory of checkout attempts (stub-server/order-attempts.ts): what a repeat of an
// Idempotency-Key gets while the first request is placed, after, and once that first is lost.
import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_KEPT_MS,
  ATTEMPT_LOST_MS,
  OrderAttempts,
} from '../../stub-server/order-attempts.ts';

const placed = { status: 201, body: { id: 8 } };

function attemptsOnAClock() {
  let now = 1_000_000;
  const attempts = new OrderAttempts(() => now);
  return { attempts, pass: (ms: number) => (now += ms) };
}

describe('order attempts', () => {
  it('a repeat while the first is placed is in flight; after it, it gets the first answer', () => {
    const { attempts } = attemptsOnAClock();
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'first' });
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'in-flight' });
    attempts.finish('session:a', 'k1', placed);
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'repeat', answer: placed });
  });

  it('a key is one visitor’s: another visitor’s same key is a first request', () => {
    const { attempts } = attemptsOnAClock();
    attempts.claim('session:a', 'k1');
    expect(attempts.claim('session:b', 'k1')).toEqual({ kind: 'first' });
    expect(attempts.claim('user:1', 'k1')).toEqual({ kind: 'first' });
  });

  it('a released first (a server error) lets the repeat place the order', () => {
    const { attempts } = attemptsOnAClock();
    attempts.claim('session:a', 'k1');
    attempts.release('session:a', 'k1');
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'first' });
  });

  it('a first unanswered for a minute is lost: the repeat places the order', () => {
    const { attempts, pass } = attemptsOnAClock();
    attempts.claim('session:a', 'k1');
    pass(ATTEMPT_LOST_MS - 1);
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'in-flight' });
    pass(1);
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'first' });
  });

  it('an answer is kept for a day', () => {
    const { attempts, pass } = attemptsOnAClock();
    attempts.claim('session:a', 'k1');
    attempts.finish('session:a', 'k1', placed);
    pass(ATTEMPT_KEPT_MS - 1);
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'repeat', answer: placed });
    pass(2);
    expect(attempts.claim('session:a', 'k1')).toEqual({ kind: 'first' });
  });
});
