// The benches' browsers, launched as the e2e tests launch them (tests/e2e/browser.ts,
// tests/e2e/firefox.ts), with Ctrl+C left to the bench (it stops its servers after the browser).
//   - Chromium through playwright-core: the first views, pictures, search, loading states and
//     the faults' screenshots;
//   - a phone through puppeteer-core, Chromium or Firefox ESR, for the dead taps: one driver for
//     both engines, so that their trials are one loop.
import puppeteer, { type Browser as PhoneBrowser, type Page as PhonePage } from 'puppeteer-core';
import { CHROME_PATH, LAUNCH_ARGS, launchBrowser } from '../../tests/e2e/browser.ts';
import { launchFirefox } from '../../tests/e2e/firefox.ts';
import { FIRST_VIEW_VIEWPORT, firstVisitorContext } from '../../tests/e2e/first-view.ts';

export { CHROME_PATH, FIRST_VIEW_VIEWPORT, firstVisitorContext, LAUNCH_ARGS };

const OWN_SIGNALS = { handleSIGINT: false, handleSIGTERM: false };

export const launchChromium = () => launchBrowser(OWN_SIGNALS);

/** A mid-range phone on slow 4G, as Lighthouse's mobile preset (applied, not simulated). */
export const PHONE = {
  cpu_slowdown: 4,
  latency_ms: 150,
  download_bytes_per_s: 200_000,
  upload_bytes_per_s: 93_750,
};

export type Engine = 'chromium' | 'firefox';

export function launchPhone(engine: Engine): Promise<PhoneBrowser> {
  if (engine === 'firefox') return launchFirefox(OWN_SIGNALS);
  return puppeteer.launch({
    browser: 'chrome',
    executablePath: CHROME_PATH,
    args: LAUNCH_ARGS,
    headless: true,
    ...OWN_SIGNALS,
  });
}

/** Chromium's page slowed to the phone through the DevTools protocol, before it navigates. */
export async function throttlePhone(page: PhonePage): Promise<void> {
  await page.emulateNetworkConditions({
    latency: PHONE.latency_ms,
    download: PHONE.download_bytes_per_s,
    upload: PHONE.upload_bytes_per_s,
  });
  await page.emulateCPUThrottling(PHONE.cpu_slowdown);
}
