// POST /rum: the speed shoppers' browsers saw (src/app/rum.ts sends it), as Prometheus
// histograms per figure, kind of page and view, with Google's good and poor thresholds among
// their buckets, so that an alert reads the share of good views or the p75 straight from them.
// Anyone can post here, so nothing is counted unless the whole beacon is plainly a browser's: a
// small body, the shape the app sends (valibot), kinds of page from the app's list, values a
// real page could have, from this site's page, and no more often than a browser sends them.
import express, { type Request, type Response, type Router } from 'express';
import { LRUCache } from 'lru-cache';
import * as v from 'valibot';
import type { Entry } from '../app-entry.ts';
import type { ShopMetrics } from './metrics.ts';
import { sameOriginPost } from '../forms/same-site.ts';

/** The most bytes a beacon holds: twelve figures are some 900. */
export const RUM_MAX_BYTES = 4096;
/**
 * Beacons one address may send a minute: a browser sends one per page it leaves. A carrier's NAT
 * with many shoppers behind it loses some of theirs; a script posting in a loop counts for little.
 */
export const RUM_PER_MINUTE = 30;
const ADDRESSES_KEPT = 10_000;

/** The buckets of each figure, in seconds (CLS unitless); Google's thresholds are among them. */
export const RUM_BUCKETS = {
  // good ≤ 2.5 s, poor > 4 s
  LCP: [0.5, 1, 1.5, 2, 2.5, 3, 4, 6, 10, 20],
  // good ≤ 200 ms, poor > 500 ms
  INP: [0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5],
  // good ≤ 0.1, poor > 0.25
  CLS: [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1],
  // good ≤ 1.8 s, poor > 3 s
  FCP: [0.5, 1, 1.8, 2.5, 3, 4, 6, 10],
  // good ≤ 0.8 s, poor > 1.8 s
  TTFB: [0.1, 0.2, 0.4, 0.8, 1.2, 1.8, 3, 6],
};

type RumApp = Pick<Entry, 'PAGE_KINDS' | 'RUM_METRICS' | 'RUM_MAX_SAMPLES'>;

export function rumRoute(app: RumApp, metrics: ShopMetrics): Router {
  const names = Object.keys(app.RUM_METRICS) as (keyof typeof RUM_BUCKETS)[];
  const Beacon = v.pipe(
    v.array(
      v.strictObject({
        name: v.picklist(names),
        value: v.pipe(v.number(), v.finite(), v.minValue(0)),
        kind: v.picklist(app.PAGE_KINDS),
        view: v.picklist(['load', 'app']),
      }),
    ),
    v.minLength(1),
    v.maxLength(app.RUM_MAX_SAMPLES),
  );
  const histograms = Object.fromEntries(
    names.map((name) => [
      name,
      metrics.histogram(
        name === 'CLS' ? 'shop_rum_cls' : `shop_rum_${name.toLowerCase()}_seconds`,
        `${name} that shoppers' browsers saw, by kind of page and view (load or in the app)`,
        RUM_BUCKETS[name],
        ['kind', 'view'],
      ),
    ]),
  );
  const refused = metrics.counter(
    'shop_rum_refused_total',
    'Beacons to /rum refused, and not counted, by why',
    ['reason'],
  );
  const recent = new LRUCache<string, { count: number; since: number }>({ max: ADDRESSES_KEPT });
  const limited = (address: string) => {
    const now = Date.now();
    const seen = recent.get(address);
    if (!seen || now - seen.since > 60_000) {
      recent.set(address, { count: 1, since: now });
      return false;
    }
    seen.count += 1;
    return seen.count > RUM_PER_MINUTE;
  };

  const refuse = (res: Response, status: number, reason: string) => {
    refused.labels(reason).inc();
    res.status(status).type('text/plain; charset=utf-8').send('Отклонено');
  };
  const readText = express.text({ type: () => true, limit: RUM_MAX_BYTES });

  const router = express.Router();
  router.post('/rum', (req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store');
    if (!sameOriginPost(req)) return refuse(res, 403, 'cross_site');
    if (limited(req.ip ?? '')) return refuse(res, 429, 'rate_limited');
    readText(req, res, (error?: unknown) => {
      if (error) return refuse(res, 413, 'too_big');
      let body: unknown;
      try {
        body = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return refuse(res, 400, 'not_json');
      }
      const beacon = v.safeParse(Beacon, body);
      if (!beacon.success) return refuse(res, 400, 'bad_shape');
      const samples = beacon.output;
      if (samples.some(({ name, value }) => value > app.RUM_METRICS[name].max)) {
        return refuse(res, 400, 'out_of_bounds');
      }
      for (const { name, value, kind, view } of samples) {
        histograms[name]?.labels(kind, view).observe(name === 'CLS' ? value : value / 1000);
      }
      res.status(204).end();
    });
  });
  return router;
}
