// Each engine's adapter to the shopper's path (tests/e2e/shopper-path.ts): the same few
// operations in playwright-core (Chromium), puppeteer-core over WebDriver BiDi (Firefox) and
// selenium-webdriver over classic WebDriver (WebKit).
import type { Browser as ChromiumBrowser } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { By, type WebDriver } from 'selenium-webdriver';
import { baseUrl, openPage } from './browser.ts';
import type { FirefoxPageOptions } from './firefox.ts';
import type { Shopper } from './shopper-path.ts';
import { until } from './shopper-path.ts';
import type { WebKitOptions } from './webkit.ts';

const TARGET = '[data-shopper-target]';

/** With JavaScript, a page is the app's once it has taken the server's HTML over. */
const appHasPage = (shopper: Shopper) =>
  shopper.javaScript
    ? until(shopper, () => document.documentElement.hasAttribute('data-hydrated'), null)
    : Promise.resolve();

const cookieMap = (cookies: { name: string; value: string }[]) =>
  Object.fromEntries(cookies.map(({ name, value }) => [name, value]));

export async function chromiumShopper(
  browser: ChromiumBrowser,
  javaScript: boolean,
  /** Another shop than the suite's (nginx in front of instances). */
  baseURL?: string,
): Promise<Shopper> {
  // openPage's goto and reload wait for the app by themselves (browser.ts).
  const page = await openPage(browser, '/policy', {
    javaScriptEnabled: javaScript,
    ...(baseURL ? { baseURL } : {}),
  });
  return {
    engine: 'Chromium',
    javaScript,
    goto: async (path) => {
      await page.goto(path);
    },
    reload: async () => {
      await page.reload();
    },
    clickTarget: () => page.locator(TARGET).click(),
    typeIntoTarget: (text) => page.locator(TARGET).pressSequentially(text),
    // The arguments are plain JSON (strings, objects of them, null), as every driver sends them.
    evaluate: <A, T>(fn: (arg: A) => T, arg: A) =>
      page.evaluate(fn as (arg: unknown) => T, arg as unknown),
    cookies: async () => cookieMap(await page.context().cookies()),
    version: async () => browser.version(),
  };
}

export async function firefoxShopper(
  open: (path: string, options?: FirefoxPageOptions) => Promise<FirefoxPage>,
  javaScript: boolean,
): Promise<Shopper> {
  const page = await open('/policy', { javaScriptEnabled: javaScript });
  const shopper: Shopper = {
    engine: 'Firefox',
    javaScript,
    goto: async (path) => {
      await page.goto(new URL(path, baseUrl()).href);
      await appHasPage(shopper);
    },
    reload: async () => {
      await page.reload();
      await appHasPage(shopper);
    },
    clickTarget: async () => {
      if (javaScript) {
        await page.click(TARGET);
        return;
      }
      // puppeteer's click waits on the page's own scripts, which do not run here: the element's
      // click() from the driver's sandbox does what the tap does (browser-cache.test.ts).
      await page.$eval(TARGET, (element) => (element as HTMLElement).click());
    },
    typeIntoTarget: async (text) => {
      if (javaScript) {
        await page.type(TARGET, text);
        return;
      }
      await page.$eval(TARGET, (field, value) => ((field as HTMLInputElement).value = value), text);
    },
    evaluate: <A, T>(fn: (arg: A) => T, arg: A) =>
      page.evaluate(fn as (arg: unknown) => T, arg as unknown) as Promise<T>,
    cookies: async () => cookieMap(await page.browserContext().cookies()),
    // "firefox/140.12.0" over WebDriver BiDi.
    version: async () => (await page.browser().version()).replace(/^firefox\//, ''),
  };
  return shopper;
}

export async function webkitShopper(
  open: (options?: WebKitOptions) => Promise<WebDriver>,
  javaScript: boolean,
): Promise<Shopper> {
  const driver = await open({ javaScriptEnabled: javaScript });
  const shopper: Shopper = {
    engine: 'WebKit',
    javaScript,
    goto: async (path) => {
      await driver.get(new URL(path, baseUrl()).href);
      await appHasPage(shopper);
    },
    reload: async () => {
      await driver.navigate().refresh();
      await appHasPage(shopper);
    },
    clickTarget: () => driver.findElement(By.css(TARGET)).click(),
    typeIntoTarget: (text) => driver.findElement(By.css(TARGET)).sendKeys(text),
    // A function value: WebDriver's Execute Script runs it as the driver's, not the page's code.
    evaluate: <A, T>(fn: (arg: A) => T, arg: A) => driver.executeScript<T>(fn, arg),
    cookies: async () => cookieMap(await driver.manage().getCookies()),
    version: async () => String((await driver.getCapabilities()).get('browserVersion')),
  };
  return shopper;
}
