// Firefox for the e2e tests: Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi
// (playwright-core drives only its own patched Firefox, which cannot be downloaded here). Like
// setupBrowser() in browser.ts: the file's browser is launched once, and each page opens in a
// context of its own (own cookies, storage and cache), closed after its test.
import { existsSync } from 'node:fs';
import puppeteer, {
  type Browser,
  type BrowserContext,
  type LaunchOptions,
  type Page,
} from 'puppeteer-core';
import { afterAll, afterEach } from 'vitest';
import { baseUrl } from './browser.ts';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Bounds a failing wait only, as in browser.ts: a loaded CI machine is slow. */
const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Firefox, with JavaScript or without. Firefox ESR's WebDriver BiDi cannot switch scripts off
 * for one page (puppeteer's setJavaScriptEnabled), so that is a browser of its own. A bench adds
 * its `options` (it handles Ctrl+C itself).
 */
export async function launchFirefox({
  javaScriptEnabled = true,
  ...options
}: { javaScriptEnabled?: boolean } & LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(FIREFOX_PATH)) {
    throw new Error(
      `e2e: Firefox not found at ${FIREFOX_PATH}. Install it (apt-get install firefox-esr) or set FIREFOX_PATH.`,
    );
  }
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    protocol: 'webDriverBiDi',
    headless: true,
    extraPrefsFirefox: javaScriptEnabled ? {} : { 'javascript.enabled': false },
    ...options,
  });
}

export interface FirefoxPageOptions {
  /** false: the page as Firefox without JavaScript shows it. */
  javaScriptEnabled?: boolean;
}

/**
 * Registers the file's Firefox (launched when first asked for, one with JavaScript and one
 * without, closed after the file) and returns a function that opens `pathname` of the suite's
 * server in a new context.
 */
export function setupFirefox(): (pathname: string, options?: FirefoxPageOptions) => Promise<Page> {
  const browsers = new Map<boolean, Promise<Browser>>();
  const contexts: BrowserContext[] = [];

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
  });
  afterAll(async () => {
    for (const browser of browsers.values()) await (await browser).close();
    browsers.clear();
  });

  return async (pathname, { javaScriptEnabled = true } = {}) => {
    let browser = browsers.get(javaScriptEnabled);
    if (!browser) {
      browser = launchFirefox({ javaScriptEnabled });
      browsers.set(javaScriptEnabled, browser);
    }
    const context = await (await browser).createBrowserContext();
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
    page.setDefaultNavigationTimeout(DEFAULT_TIMEOUT_MS * 2);
    await page.goto(new URL(pathname, baseUrl()).href);
    return page;
  };
}
