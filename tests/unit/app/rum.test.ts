// The speed report (src/app/rum.ts): web-vitals' figures go out in one beacon to /rum when the
// page is hidden, each with the kind of page and view it belongs to: the load's figures to the
// page that loaded, INP and CLS to the view their interaction or shifts began in.
import type { Metric } from 'web-vitals';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Report = (metric: Metric) => void;
const reports = vi.hoisted(() => new Map<string, Report>());
vi.mock('web-vitals', () => {
  const on = (name: string) => (report: Report) => reports.set(name, report);
  return {
    onLCP: on('LCP'),
    onINP: on('INP'),
    onCLS: on('CLS'),
    onFCP: on('FCP'),
    onTTFB: on('TTFB'),
  };
});

const { startRum } = await import('../../../src/app/rum');

const metric = (name: Metric['name'], value: number, startTimes: number[] = []): Metric =>
  ({
    name,
    value,
    entries: startTimes.map((startTime) => ({ startTime })),
    navigationType: 'navigate',
  }) as unknown as Metric;

function hide() {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

let sent: { url: string; body: string }[];
beforeEach(() => {
  sent = [];
  reports.clear();
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, body: string) => sent.push({ url, body }) > 0,
  });
});
afterEach(() => {
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});

describe('the speed report', () => {
  it('sends every figure in one beacon when the page is hidden, by kind of page and view', () => {
    // Loaded on the home page; the shopper then went to a product in the app.
    startRum([
      { at: 0, route: '/' },
      { at: 5000, route: '/product/:id' },
    ]);
    reports.get('TTFB')!(metric('TTFB', 120));
    reports.get('FCP')!(metric('FCP', 900));
    reports.get('LCP')!(metric('LCP', 1800, [850]));
    expect(sent).toEqual([]);
    // The worst tap was on the product page; the shifts began on the home page.
    reports.get('INP')!(metric('INP', 350, [6200]));
    reports.get('CLS')!(metric('CLS', 0.02, [1200, 6500]));
    hide();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/rum');
    expect(JSON.parse(sent[0]!.body)).toEqual([
      { name: 'TTFB', value: 120, kind: 'home', view: 'load' },
      { name: 'FCP', value: 900, kind: 'home', view: 'load' },
      { name: 'LCP', value: 1800, kind: 'home', view: 'load' },
      { name: 'INP', value: 350, kind: 'product', view: 'app' },
      { name: 'CLS', value: 0.02, kind: 'home', view: 'load' },
    ]);
    // Nothing new: nothing more sent.
    hide();
    expect(sent).toHaveLength(1);
  });

  it('names a page it does not know not_found', () => {
    startRum([{ at: 0, route: null }]);
    reports.get('LCP')!(metric('LCP', 1000));
    hide();
    expect(JSON.parse(sent.at(-1)!.body)).toEqual([
      { name: 'LCP', value: 1000, kind: 'not_found', view: 'load' },
    ]);
  });
});

describe('the kinds of page', () => {
  it('has one kind for each route, from the list /rum takes', async () => {
    const { ROUTES } = await import('../../../src/app/routes');
    const { pageKind, PAGE_KINDS } = await import('../../../src/lib/rum-beacon');
    const kinds = ROUTES.map((route) => pageKind(route.path));
    expect(kinds).not.toContain('not_found');
    expect(new Set(kinds).size).toBe(ROUTES.length);
    expect([...kinds, 'not_found'].sort()).toEqual([...PAGE_KINDS].sort());
  });
});
