// Issue 30: a browser never shows a stale page. A public page said stale-while-revalidate=600 in
// Cache-Control, meant for nginx and a CDN; Firefox read it too, and a shopper who accepted the
// cookie notice, put a product in the basket and switched the theme got the page they had seen
// before all that back from its cache: the notice again, no basket, the old theme. Pages now say
// max-age=0, must-revalidate with an ETag, so the browser asks each time (and gets a 304 when
// nothing changed). In Chromium (playwright-core) and Firefox (puppeteer-core), with JavaScript
// and without.
import type { Page as ChromiumPage } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { describe, expect, test } from 'vitest';
import { baseUrl, openPage, setupBrowser } from './browser.ts';
import { setupFirefox } from './firefox.ts';

const chromium = setupBrowser();
const firefox = setupFirefox();

/** The page seen first and opened again: it has the cookie notice and the theme toggle. */
const SEEN = '/product/17';
/** Where the shopper makes the changes: another product in stock. */
const ELSEWHERE = '/product/4';
const ACCEPT = 'form[action="/cookie-consent"] button[type="submit"]';
const ADD = 'button[name="change"][value="add"]';
const THEME = 'button[aria-label="Переключить тему"]';

/** What the page on screen says, as its HTML came from the server (or the browser's cache). */
interface Shown {
  theme: string | null;
  cookieAccepted: boolean;
  basketLines: number;
  /** The product's amount field, shown in place of В корзину while it is in the basket. */
  amountFields: number;
}

function readShown(): Shown {
  const embedded = document.getElementById('page-data')?.textContent ?? '{}';
  const data = JSON.parse(embedded) as {
    cookieAccepted?: boolean;
    basket?: { lines: Record<string, unknown> } | null;
  };
  return {
    theme: document.documentElement.getAttribute('data-mantine-color-scheme'),
    cookieAccepted: data.cookieAccepted === true,
    basketLines: Object.keys(data.basket?.lines ?? {}).length,
    amountFields: document.querySelectorAll('input[name="amount"]').length,
  };
}

/**
 * Polls `check` run in the page until it answers true. Not the drivers' waitForFunction: puppeteer
 * builds its poller in the page with Function(), which Firefox ESR 140 refuses under the shop's
 * CSP (no 'unsafe-eval'); a function value passed to evaluate is sent by the driver as it is.
 */
async function until(check: () => Promise<boolean>): Promise<void> {
  await expect.poll(check).toBe(true);
}

/** The few things the test does with a page, alike in both browsers. */
interface Tab {
  goto(path: string): Promise<void>;
  /** Clicks; without JavaScript, waits for the page the form's answer (a 303) leads back to. */
  press(selector: string): Promise<void>;
  until(check: () => boolean): Promise<void>;
  shown(): Promise<Shown>;
}

function chromiumTab(page: ChromiumPage, javaScript: boolean): Tab {
  return {
    goto: async (path) => {
      await page.goto(path);
    },
    press: async (selector) => {
      const loaded = javaScript ? null : page.waitForEvent('load');
      await page.locator(selector).first().click();
      await loaded;
    },
    until: (check) => until(() => page.evaluate(check)),
    shown: () => page.evaluate(readShown),
  };
}

function firefoxTab(page: FirefoxPage, javaScript: boolean): Tab {
  return {
    goto: async (path) => {
      await page.goto(new URL(path, baseUrl()).href);
    },
    press: async (selector) => {
      if (javaScript) {
        await page.click(selector);
        return;
      }
      // puppeteer's click waits on the page's own scripts, which do not run here: the button's
      // click() from the driver's sandbox posts the form all the same.
      const loaded = page.waitForNavigation();
      await page.$eval(selector, (button) => (button as HTMLButtonElement).click());
      await loaded;
    },
    until: (check) => until(() => page.evaluate(check)),
    shown: () => page.evaluate(readShown),
  };
}

/**
 * A page seen; then, on another page, the notice accepted, a product added and the theme
 * switched; then the first page opened again.
 */
async function changeThenReturn(tab: Tab, javaScript: boolean): Promise<void> {
  const before = { theme: 'light', cookieAccepted: false, basketLines: 0 };
  expect(await tab.shown()).toEqual({ ...before, amountFields: 0 });
  await tab.goto(ELSEWHERE);
  await tab.press(ACCEPT);
  await tab.press(ADD);
  if (javaScript) {
    // The app's own basket: its controls, and the cookie that keeps the next page the visitor's.
    await tab.until(() => document.querySelector('input[name="amount"]') !== null);
    await tab.until(() => /(^|; )basket=1/.test(document.cookie));
  }
  expect((await tab.shown()).amountFields).toBe(1);
  await tab.press(THEME);
  if (javaScript) {
    await tab.until(
      () => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark',
    );
  }
  // Back by the address, as a shopper does (not a reload, which always asks the server).
  await tab.goto(SEEN);
  expect(await tab.shown()).toEqual({
    theme: 'dark',
    cookieAccepted: true,
    basketLines: 1,
    amountFields: 0,
  });
}

describe.each([
  ['with JavaScript', true],
  ['without JavaScript', false],
])('a page opened again %s', (_how, javaScript) => {
  test('in Chromium shows the notice accepted, the basket and the theme', async () => {
    const page = await openPage(chromium(), SEEN, { javaScriptEnabled: javaScript });
    await changeThenReturn(chromiumTab(page, javaScript), javaScript);
  });

  test('in Firefox shows the notice accepted, the basket and the theme', async () => {
    const page = await firefox(SEEN, { javaScriptEnabled: javaScript });
    await changeThenReturn(firefoxTab(page, javaScript), javaScript);
  });
});
