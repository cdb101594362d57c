// The backend's connections shared fairly (host/backend/backend-share.ts, issue 39): one address
// cannot hold more than its share, the shopper's own calls always have connections kept for them,
// and calls waiting while the backend is busy go in turn.
import { describe, expect, it } from 'vitest';
import {
  BackendBusyError,
  BackendShare,
  type CallKind,
  shareLimits,
} from '../../host/backend/backend-share.ts';

/** Takes `count` connections of `kind` for `address`; their release functions. */
async function hold(share: BackendShare, kind: CallKind, address: string, count: number) {
  const releases: (() => void)[] = [];
  for (let i = 0; i < count; i += 1) releases.push(await share.take(kind, address));
  return releases;
}

/** Whether `promise` has settled by the time the calls already queued have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the split of BACKEND_MAX_SOCKETS', () => {
  it('keeps a quarter for the shopper’s own calls, and gives one address a quarter', () => {
    expect(shareLimits(64)).toEqual({ slots: 64, reserved: 16, perAddress: 16 });
    // Too few to keep any: an address still gets one at a time.
    expect(shareLimits(2)).toEqual({ slots: 2, reserved: 0, perAddress: 1 });
  });
});

describe('one address', () => {
  it('holds at most its share: its next call waits for one of its own, and another address goes at once', async () => {
    const share = new BackendShare(shareLimits(64));
    const flood = await hold(share, 'public', '203.0.113.66', 16);
    const seventeenth = share.take('public', '203.0.113.66');
    expect(await settled(seventeenth)).toBe(false);
    // Someone else's search, and a shopper's basket, are not behind the flood.
    (await share.take('public', '198.51.100.7'))();
    (await share.take('own', '198.51.100.8'))();
    expect(await settled(seventeenth)).toBe(false);
    flood[0]?.();
    expect(await settled(seventeenth)).toBe(true);
    expect(share.count()).toBe(16);
  });

  it('past its share waits rather than failing, even for the server’s own calls', async () => {
    const share = new BackendShare(shareLimits(8));
    await hold(share, 'public', '203.0.113.66', 2);
    const third = share.take('public', '203.0.113.66', { waitForFree: false });
    expect(await settled(third)).toBe(false);
    expect(share.queued()).toBe(1);
  });

  it('gives up the wait when its signal ends it, and leaves the queue', async () => {
    const share = new BackendShare(shareLimits(4));
    const [release] = await hold(share, 'public', '203.0.113.66', 1);
    const deadline = new AbortController();
    const waiting = share.take('public', '203.0.113.66', { signal: deadline.signal });
    deadline.abort(new Error('the page’s deadline'));
    await expect(waiting).rejects.toThrow('the page’s deadline');
    expect(share.queued()).toBe(0);
    release?.();
    expect(share.count()).toBe(0);
  });
});

describe('the kept connections', () => {
  it('are never taken by the catalogue’s or the search’s calls, whoever makes them', async () => {
    const share = new BackendShare(shareLimits(8));
    // Six addresses' searches fill what is not kept (8 - 2).
    for (let i = 1; i <= 6; i += 1) await share.take('public', `203.0.113.${i}`);
    // The server's own call fails at once; the proxy's waits.
    await expect(share.take('public', '203.0.113.7')).rejects.toBeInstanceOf(BackendBusyError);
    const proxied = share.take('public', '203.0.113.8', { waitForFree: true });
    expect(await settled(proxied)).toBe(false);
    // A shopper's basket change and checkout still have theirs.
    const basket = await share.take('own', '198.51.100.7');
    const checkout = await share.take('own', '198.51.100.9');
    expect(share.count()).toBe(8);
    basket();
    checkout();
    // Given back, the kept ones stay kept: the waiting search is still waiting.
    expect(await settled(proxied)).toBe(false);
  });

  it('are there for an own call of an address whose searches wait', async () => {
    const share = new BackendShare(shareLimits(8));
    for (let i = 1; i <= 5; i += 1) await share.take('public', `203.0.113.${i}`);
    await share.take('public', '198.51.100.7');
    const search = share.take('public', '198.51.100.7', { waitForFree: true });
    expect(await settled(search)).toBe(false);
    // Its share is 2, one taken: its basket change goes, not behind its own waiting search.
    const basket = share.take('own', '198.51.100.7', { waitForFree: true });
    expect(await settled(basket)).toBe(true);
  });
});

describe('calls waiting for a busy backend', () => {
  it('go in turn, one address after another, not all of the first one’s first', async () => {
    const share = new BackendShare(shareLimits(4));
    const held = await Promise.all(
      ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map((address) =>
        share.take('own', address),
      ),
    );
    const order: string[] = [];
    const wait = (address: string) =>
      share.take('own', address, { waitForFree: true }).then((release) => {
        order.push(address);
        return release;
      });
    // The first address's calls are past its share anyway; the others' wait for the backend.
    const waiting = [
      wait('198.51.100.1'),
      wait('198.51.100.1'),
      wait('198.51.100.2'),
      wait('198.51.100.3'),
    ];
    for (const release of held) release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['198.51.100.1', '198.51.100.2', '198.51.100.3']);
    (await waiting[0]!)();
    expect(await settled(waiting[1]!)).toBe(true);
  });
});
