// The renewal of kept pages after a change (host/pages/page-renewal.ts), against a stand-in for
// nginx's renewing listener that the test answers by hand: a fresh change's pages are renewed at
// once even while earlier pages' retries hang, a page is renewed once at a time with the newest
// change's time, and never more than 4 renewals are under way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KeptPage, type PageRenewal, pageRenewal } from '../../host/pages/page-renewal.ts';
import {
  type Change,
  changedShown,
  isReached,
  joinChanges,
  NO_CHANGE,
} from '../../src/server-entry/changes.ts';
import { productShown } from '../../src/lib/shown-data.ts';
import { listen, type Listening } from './http-helpers.ts';

interface Asked {
  url: string;
  since: number;
  /** How it was answered; none while held. */
  answer?: Answer;
  /** Whether its connection has ended (answered, or given up by the renewer). */
  ended?: boolean;
}

type Answer = 'renewed' | 'bad gateway' | 'hold';

let nginx: Listening;
let renewal: PageRenewal;
let asked: Asked[];
let held: { asked: Asked; res: ServerResponse }[];
let underWay: number;
let mostAtOnce: number;
/** How the stand-in answers a request for `url`, the how-manieth (from 1) for that url. */
let answerFor: (url: string, nth: number) => Answer;

const answer = (entry: { asked: Asked; res: ServerResponse }, how: Answer) => {
  const { res } = entry;
  if (how === 'renewed') res.writeHead(200, { 'Cache-Control': 'max-age=0, s-maxage=60' });
  else res.writeHead(502);
  res.end();
  entry.asked.answer = how;
};

beforeEach(async () => {
  asked = [];
  held = [];
  underWay = 0;
  mostAtOnce = 0;
  answerFor = () => 'renewed';
  nginx = await listen((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const entry = {
      asked: { url, since: Number(req.headers['x-shop-renew']) } as Asked,
      res,
    };
    asked.push(entry.asked);
    underWay += 1;
    mostAtOnce = Math.max(mostAtOnce, underWay);
    res.once('close', () => {
      underWay -= 1;
      entry.asked.ended = true;
    });
    const how = answerFor(url, asked.filter((one) => one.url === url).length);
    if (how === 'hold') held.push(entry);
    else answer(entry, how);
  });
  renewal = pageRenewal({
    renewUrl: nginx.url,
    app: { changedShown, isReached, joinChanges, outdateAnswers: () => 0 },
  });
});

afterEach(async () => {
  answerFor = () => 'renewed';
  for (const entry of held.splice(0)) answer(entry, 'renewed');
  await renewal.close();
  await nginx.close();
});

const page = (url: string, shows: number): KeptPage => ({
  scheme: 'https',
  host: 'shop.test',
  url,
  theme: 'light',
  accepted: true,
  encoding: 'br',
  shows: [productShown(shows)],
});
const productChanged = (id: number): Change => ({ ...NO_CHANGE, products: [id] });
const renewedAt = (url: string) =>
  asked.filter((one) => one.url === url && one.answer === 'renewed');

describe('a fresh change', () => {
  it('is renewed at once while the retries of an earlier change’s pages hang', async () => {
    const failing = Array.from({ length: 8 }, (_, n) => `/product/1?variant=${n}`);
    for (const url of failing) renewal.kept(page(url, 1));
    renewal.kept(page('/product/2', 2));
    // The first change's pages fail (a backend down, a render timed out), then hang when tried
    // again: the retries pile up.
    answerFor = (url, nth) =>
      !url.startsWith('/product/1') ? 'renewed' : nth === 1 ? 'bad gateway' : 'hold';

    renewal.change(productChanged(1));
    await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

    const changedAt = Date.now();
    renewal.change(productChanged(2));
    await expect.poll(() => renewedAt('/product/2').length, { timeout: 20_000 }).toBe(1);
    // It went ahead of them: the retries that were under way are still waiting for an answer.
    expect(held.length).toBeGreaterThanOrEqual(2);
    expect(held.filter((entry) => entry.asked.ended)).toEqual([]);
    expect(renewedAt('/product/2')[0]?.since).toBeGreaterThanOrEqual(changedAt);

    // Once the backend answers again, every page of the first change is renewed.
    answerFor = () => 'renewed';
    for (const entry of held.splice(0)) answer(entry, 'renewed');
    await renewal.idle();
    expect(failing.filter((url) => renewedAt(url).length !== 1)).toEqual([]);
    expect(mostAtOnce).toBeLessThanOrEqual(4);
  });
});

describe('a page reached by a change while it is being renewed', () => {
  it('is renewed once at a time, then again with the newer change’s time', async () => {
    renewal.kept(page('/product/3', 3));
    renewal.kept(page('/product/4', 4));
    answerFor = (url, nth) => (url === '/product/3' && nth === 1 ? 'hold' : 'renewed');
    renewal.change(productChanged(3));
    await expect.poll(() => held.length).toBe(1);

    const changedAgainAt = Date.now();
    renewal.change({ ...NO_CHANGE, products: [3, 4] });
    // The second change is under way (its other page is renewed), and the page the first one is
    // still renewing is not asked for again meanwhile: that renewal may have read the backend
    // before the second change.
    await expect.poll(() => renewedAt('/product/4').length, { timeout: 20_000 }).toBe(1);
    expect(asked.filter((one) => one.url === '/product/3')).toHaveLength(1);

    for (const entry of held.splice(0)) answer(entry, 'renewed');
    await renewal.idle();
    const renewals = asked.filter((one) => one.url === '/product/3');
    expect(renewals).toHaveLength(2);
    expect(renewals[1]?.since).toBeGreaterThanOrEqual(changedAgainAt);
  });
});
