// The first screen's API calls leave with the HTML (src/app/first-calls.ts), before the app's
// code has arrived, and the app uses their answers instead of asking again.
import { describe, expect, test } from 'vitest';
import { baseUrl, launchBrowser, openPage, setupBrowser } from './browser.ts';

const browser = setupBrowser();

const ROUTES = [
  '/',
  '/catalog',
  '/section/1',
  '/selection/1',
  '/product/7',
  '/search?q=малина',
  '/order',
  '/policy',
];

describe('the first screen calls', () => {
  for (const route of ROUTES) {
    test(`${route}: index.html asks for all its calls, each once, and the app uses every answer`, async () => {
      // A page before, so the listener below hears every request of the route's own load. Not
      // the shop: a shop page's total_price follows its basket answer, and on a busy machine it
      // can leave after that page went quiet, so it was counted as this route's second one.
      const page = await openPage(browser(), '/favicon.svg');
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) asked.push(`${url.pathname}${url.search}`);
      });
      await page.goto(route, { waitUntil: 'networkidle' });
      const early = () =>
        page.evaluate(() =>
          (window.__firstCalls ?? []).map((call) => ({
            url: call.url,
            taken: call.taken === true,
          })),
        );
      expect((await early()).length).toBeGreaterThan(0);
      // The app takes them as it renders, which on a busy machine may be after the network
      // has gone quiet.
      await expect.poll(async () => (await early()).filter((call) => !call.taken)).toEqual([]);
      // The total follows the basket's answer, once.
      await expect.poll(() => asked.includes('/api/catalog/total_price')).toBe(true);
      const twice = asked.filter((url, index) => asked.indexOf(url) !== index);
      expect(twice).toEqual([]);
      // And none is missing: the total follows the basket's answer, so it cannot leave early.
      const later = asked.filter((url) => url !== '/api/catalog/total_price');
      expect(later.sort()).toEqual((await early()).map((call) => call.url).sort());
    });
  }

  test('leave with the HTML: they go out even when the app never runs', async () => {
    const own = await launchBrowser();
    try {
      const context = await own.newContext();
      await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
      const asked: string[] = [];
      context.on('request', (request) => asked.push(new URL(request.url()).pathname));
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/product/7`, { waitUntil: 'networkidle' });
      expect(asked.filter((path) => path.startsWith('/api/')).sort()).toEqual([
        '/api/catalog/basket',
        '/api/catalog/product_breadcrumbs/7',
        '/api/catalog/product_retrieve/7',
      ]);
    } finally {
      await own.close();
    }
  });
});
