import { afterEach, describe, expect, it, vi } from 'vitest';

const loadBasket = vi.fn(async () => {});
vi.mock('../../../src/features/basket/store', () => ({ loadBasket }));

const { startApp } = await import('../../../src/app/startup');
const { session } = await import('../../../src/features/session');

afterEach(() => loadBasket.mockClear());

describe('start-up', () => {
  it('loads the basket at start and again when the shopper logs in or out', async () => {
    startApp();
    expect(loadBasket).toHaveBeenCalledTimes(1);
    session.token = 'fresh-login';
    await vi.waitFor(() => expect(loadBasket).toHaveBeenCalledTimes(2));
    session.token = null;
    await vi.waitFor(() => expect(loadBasket).toHaveBeenCalledTimes(3));
  });
});
