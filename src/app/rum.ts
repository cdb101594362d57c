// The speed shoppers' browsers see (Core Web Vitals, field data): the web-vitals library's LCP,
// INP, CLS, FCP and TTFB, each with its view's kind of page, queued and sent in one beacon to
// the shop's own /rum when the page is hidden (the library's own advice: the last moment a
// figure may change, and one that every browser reports). Loaded after the page is up, for the
// share of views RUM_SAMPLE says (src/main.tsx).
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';
import { pageKind, RUM_MAX_SAMPLES, RUM_PATH, type RumSample } from '../lib/rum-beacon';
import type { View } from './views';

export function startRum(views: readonly View[]): void {
  const queue: RumSample[] = [];
  /** The view that was showing at `time`. */
  const viewAt = (time: number) => {
    let index = 0;
    while ((views[index + 1]?.at ?? Infinity) <= time) index += 1;
    return index;
  };
  const add = ({ name, value, entries, navigationType }: Metric) => {
    // INP and CLS belong to the view their worst interaction or shifts began in; the others to
    // the load (or, back from the browser's page cache, to the view it shows again).
    const first = entries[0];
    const index =
      (name === 'INP' || name === 'CLS') && first
        ? viewAt(first.startTime)
        : navigationType === 'back-forward-cache'
          ? views.length - 1
          : 0;
    const view = views[index];
    if (view) {
      queue.push({ name, value, kind: pageKind(view.route), view: index > 0 ? 'app' : 'load' });
    }
  };
  for (const on of [onLCP, onINP, onCLS, onFCP, onTTFB]) on(add);
  // After the library's own listener (it listens in the capture phase): its last figures are in.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden' && queue.length > 0) {
      navigator.sendBeacon(RUM_PATH, JSON.stringify(queue.splice(0, RUM_MAX_SAMPLES)));
    }
  });
}
