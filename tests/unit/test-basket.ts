// The basket a test's components show and change (renderAt provides it): a fresh store for each
// test, so that no test meets another's lines, or its counters of answers on their way.
import { afterEach } from 'vitest';
import { type BasketStore, createBasketStore } from '../../src/features/basket/store';

let current: BasketStore | undefined;
afterEach(() => {
  current = undefined;
});

/** This test's basket, made at its first use. */
export function testBasket(): BasketStore {
  return (current ??= createBasketStore());
}
