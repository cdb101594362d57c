// Issue 42: nothing a shopper types is lost while the page starts. On a phone (Chromium with its
// CPU 4× slower and a slow 4G link) the shopper taps into a field of the server's page and types;
// the app's code is held until the first part is typed (so it certainly goes into the server's
// HTML), then let through while the rest is typed. Once the app has the page, the field holds the
// whole text and still has the focus. React drawing part of the page anew meanwhile fails the
// test too (browser.ts reports hydrateRoot's onRecoverableError).
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { control, hydrated, openPage, setupBrowser } from './browser.ts';
import { acceptCookies, setServerBasket } from './failures-helpers.ts';
import { openWithAppCodeHeld } from './held-app-code.ts';

const browser = setupBrowser();

beforeEach(async () => {
  await control('/__control/reset');
});

const PHONE = { width: 390, height: 844 };
/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A mid-range phone: its CPU 4× slower than this machine's, on slow 4G (150 ms, 1.6 Mbps). */
async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 1_600_000 / 8,
    uploadThroughput: 750_000 / 8,
  });
}

interface TypedField {
  path: string;
  name: string;
  field: (page: Page) => Locator;
  /** Typed before the app's code runs, then while it starts. */
  before: string;
  during: string;
  /** What the field shows once the app has it. */
  expected: string;
  /** The field is there only with this basket (product id -> amount). */
  basket?: Record<number, number>;
  /** Select the field's text first (an amount replaces the one shown). */
  replace?: boolean;
}

const byName = (css: string) => (page: Page) => page.locator('main').locator(css);
const RASPBERRY_IN_BASKET = { 7: 1.5 };

const FIELDS: TypedField[] = [
  {
    path: '/',
    name: 'the home page’s search',
    field: byName('input[name="q"]'),
    before: 'клуб',
    during: 'ника',
    expected: 'клубника',
  },
  {
    path: '/search',
    name: 'the search page’s field',
    field: byName('input[name="q"]'),
    before: 'мал',
    during: 'ина',
    expected: 'малина',
  },
  {
    path: '/login/',
    name: 'Логин',
    field: byName('input[name="username"]'),
    before: 'demo-',
    during: 'berries',
    expected: 'demo-berries',
  },
  {
    path: '/login/',
    name: 'Пароль',
    field: byName('input[name="password"]'),
    before: 'berries',
    during: '2026',
    expected: 'berries2026',
  },
  {
    path: '/commit',
    name: 'Телефон',
    field: byName('input[name="phone"]'),
    before: '912123',
    during: '4567',
    expected: '+7(912)-123-45-67',
    basket: RASPBERRY_IN_BASKET,
  },
  {
    path: '/commit',
    name: 'Комментарий к заказу',
    field: byName('textarea[name="comment"]'),
    before: 'Позвоните ',
    during: 'за час',
    expected: 'Позвоните за час',
    basket: RASPBERRY_IN_BASKET,
  },
  {
    path: '/order',
    name: 'a basket line’s amount',
    field: byName('input[name="amount"]'),
    before: '2',
    during: ',5',
    expected: '2,5',
    basket: RASPBERRY_IN_BASKET,
    replace: true,
  },
  {
    path: '/product/7',
    name: 'a product card’s amount',
    field: byName('input[name="amount"]'),
    before: '3',
    during: ',5',
    expected: '3,5',
    basket: RASPBERRY_IN_BASKET,
    replace: true,
  },
];

describe('typing while the page starts, on a throttled phone', () => {
  test.each(FIELDS.map((field) => [`${field.path}: ${field.name}`, field] as const))(
    '%s keeps the whole text and the focus',
    async (_name, { path, field: fieldOf, before, during, expected, basket, replace }) => {
      const page = await openPage(browser(), '/policy', { viewport: PHONE });
      // The pictures are not what this is about: a cold resize on a busy machine can miss its
      // deadline (a 504 on the console), and each answers at once with the smallest picture.
      await page.route('**/img/**', (route) =>
        route.fulfill({ contentType: 'image/gif', body: PIXEL }),
      );
      await acceptCookies(page);
      if (basket) await setServerBasket(page, basket);
      await throttle(page);

      const app = await openWithAppCodeHeld(page, path);
      const field = fieldOf(page);
      await field.click();
      if (replace) await page.keyboard.press('Control+A');
      await page.keyboard.type(before);
      // The app's code now arrives and takes the page over while the shopper goes on typing.
      app.release();
      await page.keyboard.type(during);
      await hydrated(page);
      // What the app does once it runs (the basket and the user loaded again) is done too.
      await page.waitForLoadState('networkidle');

      expect(await field.inputValue()).toBe(expected);
      expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await field.count()).toBe(1);
    },
  );
});
