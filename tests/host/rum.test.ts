// POST /rum (host/process/rum.ts): the figures shoppers' browsers send are counted in histograms by
// kind of page and view, and anything that is not plainly a browser's beacon is refused and counted
// nowhere.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopMetrics } from '../../host/process/metrics.ts';
import { RUM_PER_MINUTE, rumRoute } from '../../host/process/rum.ts';
import { PAGE_KINDS, RUM_MAX_SAMPLES, RUM_METRICS } from '../../src/lib/rum-beacon';

const metrics = shopMetrics({ draining: () => false, resizes: () => ({ running: 0, waiting: 0 }) });
let url = '';
let close = () => {};

beforeAll(async () => {
  const app = express();
  // As behind nginx: each test's beacons come from an address of their own.
  app.set('trust proxy', 'loopback');
  app.use(rumRoute({ PAGE_KINDS, RUM_METRICS, RUM_MAX_SAMPLES }, metrics));
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rum`;
  close = () => server.close();
});
afterAll(() => close());

let address = 0;
/** A beacon as sendBeacon posts it (text/plain, same-origin), from a new address by default. */
const send = (body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'sec-fetch-site': 'same-origin',
      'x-forwarded-for': `198.51.100.${(address += 1)}`,
      ...headers,
    },
  });

const counted = async () =>
  (await metrics.registry.metrics())
    .split('\n')
    .filter((line) => /^shop_rum_\w+_count/.test(line) || /^shop_rum_cls_count/.test(line))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);

const lcp = { name: 'LCP', value: 1800, kind: 'home', view: 'load' };

describe('/rum', () => {
  it("counts a browser's beacon in histograms with Google's thresholds among their buckets", async () => {
    const answer = await send(
      JSON.stringify([
        lcp,
        { name: 'INP', value: 350, kind: 'product', view: 'app' },
        { name: 'CLS', value: 0.02, kind: 'home', view: 'load' },
        { name: 'FCP', value: 900, kind: 'home', view: 'load' },
        { name: 'TTFB', value: 120, kind: 'home', view: 'load' },
      ]),
    );
    expect(answer.status).toBe(204);
    const text = await metrics.registry.metrics();
    expect(text).toContain('shop_rum_lcp_seconds_bucket{le="2.5",kind="home",view="load"} 1');
    expect(text).toContain('shop_rum_lcp_seconds_bucket{le="1.5",kind="home",view="load"} 0');
    expect(text).toContain('shop_rum_lcp_seconds_bucket{le="4",kind="home",view="load"} 1');
    expect(text).toContain('shop_rum_inp_seconds_bucket{le="0.2",kind="product",view="app"} 0');
    expect(text).toContain('shop_rum_inp_seconds_bucket{le="0.5",kind="product",view="app"} 1');
    expect(text).toContain('shop_rum_cls_bucket{le="0.1",kind="home",view="load"} 1');
    expect(text).toContain('shop_rum_cls_bucket{le="0.25",kind="home",view="load"} 1');
    expect(text).toContain('shop_rum_fcp_seconds_bucket{le="1.8",kind="home",view="load"} 1');
    expect(text).toContain('shop_rum_ttfb_seconds_bucket{le="0.8",kind="home",view="load"} 1');
  });

  it.each([
    ['not JSON', 'LCP=1800', 400, 'not_json'],
    ['an object, not a list', JSON.stringify(lcp), 400, 'bad_shape'],
    ['an empty list', '[]', 400, 'bad_shape'],
    ['an unknown kind of page', JSON.stringify([{ ...lcp, kind: 'admin' }]), 400, 'bad_shape'],
    ['an unknown figure', JSON.stringify([{ ...lcp, name: 'FID' }]), 400, 'bad_shape'],
    ['a field more', JSON.stringify([{ ...lcp, url: '/x' }]), 400, 'bad_shape'],
    ['a negative time', JSON.stringify([{ ...lcp, value: -1 }]), 400, 'bad_shape'],
    ['an LCP of an hour', JSON.stringify([{ ...lcp, value: 3_600_000 }]), 400, 'out_of_bounds'],
    ['a CLS of 50', JSON.stringify([{ ...lcp, name: 'CLS', value: 50 }]), 400, 'out_of_bounds'],
    ['one good figure and one bad', JSON.stringify([lcp, { ...lcp, view: 'x' }]), 400, 'bad_shape'],
    ['too many figures', JSON.stringify(Array(RUM_MAX_SAMPLES + 1).fill(lcp)), 400, 'bad_shape'],
    ['too many bytes', JSON.stringify([{ ...lcp, pad: 'x'.repeat(5000) }]), 413, 'too_big'],
  ])('refuses %s, and counts none of it', async (_what, body, status, reason) => {
    const before = await counted();
    const answer = await send(body);
    expect(answer.status).toBe(status);
    expect(await counted()).toBe(before);
    expect(await metrics.registry.metrics()).toMatch(
      new RegExp(`shop_rum_refused_total\\{reason="${reason}"\\} [1-9]`),
    );
  });

  it("refuses another site's post", async () => {
    const before = await counted();
    const answer = await send(JSON.stringify([lcp]), { 'sec-fetch-site': 'cross-site' });
    expect(answer.status).toBe(403);
    expect(await counted()).toBe(before);
  });

  it(`takes at most ${RUM_PER_MINUTE} beacons a minute from one address`, async () => {
    const from = { 'x-forwarded-for': '192.0.2.1' };
    const before = await counted();
    const statuses: number[] = [];
    for (let index = 0; index <= RUM_PER_MINUTE; index += 1) {
      statuses.push((await send(JSON.stringify([lcp]), from)).status);
    }
    expect(statuses.filter((status) => status === 204)).toHaveLength(RUM_PER_MINUTE);
    expect(statuses.at(-1)).toBe(429);
    expect(await counted()).toBe(before + RUM_PER_MINUTE);
    // Another shopper is not held up by it.
    expect((await send(JSON.stringify([lcp]))).status).toBe(204);
  });
});
