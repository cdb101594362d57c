// Lighthouse mobile audits (performance only) of routes of the shop, in Debian's Chromium.
// Lighthouse's defaults: a Moto G Power sized screen and simulated slow 4G with a 4x slower CPU.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

/** Chromium's flags: headless, and nothing reaching out to the internet on its own. */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface LighthouseFigures {
  route: string;
  /** 0 to 1. */
  score: number;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  /** Requests Lighthouse saw going anywhere but the shop's own server. */
  external: string[];
  /** Set when Lighthouse reported a problem with the run itself. */
  warning?: string;
}

export interface LighthouseSession {
  audit(url: string, route: string): Promise<LighthouseFigures>;
  close(): Promise<void>;
}

function numeric(lhr: { audits: Record<string, { numericValue?: number }> }, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id}`);
  return value;
}

/** Starts one Chromium for all the audits; close() stops it. */
export async function startLighthouse(chromePath: string): Promise<LighthouseSession> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
    // The caller stops Chromium on Ctrl+C (close()); the launcher's own handler would exit the
    // process at once, before the caller's server and temporary data were seen to.
    handleSIGINT: false,
  });
  return {
    async audit(url, route) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        // The five metrics the score is made of, and the request list: the same score in about
        // half the time of all of the category's audits.
        onlyAudits: [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'cumulative-layout-shift',
          'speed-index',
          'network-requests',
        ],
        disableFullPageScreenshot: true,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      const score = lhr.categories.performance?.score;
      if (typeof score !== 'number') {
        throw new Error(`Lighthouse could not score ${url}: ${lhr.runtimeError?.message ?? '?'}`);
      }
      const origin = new URL(url).origin;
      const requests =
        (lhr.audits['network-requests']?.details as { items?: { url?: string }[] } | undefined)
          ?.items ?? [];
      const external = requests
        .map((item) => item.url ?? '')
        .filter((address) => /^https?:/.test(address) && new URL(address).origin !== origin);
      return {
        route,
        score,
        fcp_ms: numeric(lhr, 'first-contentful-paint'),
        lcp_ms: numeric(lhr, 'largest-contentful-paint'),
        tbt_ms: numeric(lhr, 'total-blocking-time'),
        cls: numeric(lhr, 'cumulative-layout-shift'),
        external,
        ...(lhr.runWarnings.length > 0 ? { warning: lhr.runWarnings.join(' ') } : {}),
      };
    },
    async close() {
      chrome.kill();
    },
  };
}
