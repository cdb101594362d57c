// The benches' browsers, launched as the e2e tests launch them but with Ctrl+C left to the bench
// (it stops its servers after the browser); for the dead taps a phone through puppeteer-core,
// Chromium or Firefox ESR (one driver for both engines: their trials are one loop).
import type { Browser, Page } from 'playwright-core';
import puppeteer, { type Browser as PhoneBrowser, type Page as PhonePage } from 'puppeteer-core';
import { CHROME_PATH, LAUNCH_ARGS, launchBrowser } from '../../tests/e2e/browser.ts';
import { launchFirefox } from '../../tests/e2e/firefox.ts';
import { firstVisitorContext } from '../../tests/e2e/first-view.ts';

export { CHROME_PATH, LAUNCH_ARGS };

const OWN_SIGNALS = { handleSIGINT: false, handleSIGTERM: false };

export const launchChromium = () => launchBrowser(OWN_SIGNALS);

/** A first-time visitor on a phone (tests/e2e/first-view.ts) whose requests stay on the machine. */
export async function phoneContext(browser: Browser, origin: string) {
  const context = await firstVisitorContext(browser);
  await context.route(
    (url) => url.origin !== origin && url.protocol.startsWith('http'),
    (request) => request.abort('blockedbyclient'),
  );
  return context;
}

/**
 * Runs `act` in the page; the time from then (or the last `input` event, when `typing`) until
 * `seen` holds, at the first frame painted after it (a frame callback, then a task). Text, not a
 * function: tsx would add helpers of its own to a function's source, which the page lacks.
 */
export function timeUntilShown(
  page: Page,
  seen: string,
  { act = '', typing = false }: { act?: string; typing?: boolean },
): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    let start = performance.now();
    // input, not keydown: Chromium types Cyrillic as text insertion, with no key events.
    if (${typing}) document.addEventListener('input', (event) => (start = event.timeStamp), true);
    setTimeout(() => reject(new Error('not shown within 30 s: ' + ${JSON.stringify(seen)})), 30_000);
    const observer = new MutationObserver(() => {
      if (!(${seen})) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start)));
    });
    const all = { childList: true, subtree: true, characterData: true, attributes: true };
    observer.observe(document, all);
    ${act};
  })`);
}

/** A mid-range phone on slow 4G, as Lighthouse's mobile preset (applied, not simulated); the
 * network in puppeteer's units: latency in ms, download and upload in bytes/s. */
export const PHONE = { cpu_slowdown: 4, latency: 150, download: 200_000, upload: 93_750 };

export type Engine = 'chromium' | 'firefox';

export function launchPhone(engine: Engine): Promise<PhoneBrowser> {
  if (engine === 'firefox') return launchFirefox(OWN_SIGNALS);
  return puppeteer.launch({ executablePath: CHROME_PATH, args: LAUNCH_ARGS, ...OWN_SIGNALS });
}

/** Chromium's page slowed to the phone through the DevTools protocol, before it navigates. */
export async function throttlePhone(page: PhonePage): Promise<void> {
  await page.emulateNetworkConditions(PHONE);
  await page.emulateCPUThrottling(PHONE.cpu_slowdown);
}
