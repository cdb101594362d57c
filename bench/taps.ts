// `npm run bench:taps`: the dead taps of issue 19 (bench/dead-taps.ts) alone, against a server
// of its own, in Chromium and then in Firefox (bench/dead-taps-firefox.ts, issue 32).
// BENCH_TAPS_ENGINES=chromium or firefox runs one; BENCH_TAPS_DELAYS fewer delays.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import type { RunningShop } from '../host/app.ts';
import { startBenchShop } from './bench-shop.ts';
import { benchDeadTaps, type DeadTapFigures, deadTapsTable } from './dead-taps.ts';
import { benchDeadTapsFirefox, FIREFOX_PATH, firefoxVersion } from './dead-taps-firefox.ts';
import { CHROME_FLAGS } from './lighthouse.ts';
import { stopOnce } from './stop-once.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Set on Ctrl+C: what fails after it is the interruption, not a result. */
let interruptedBy: NodeJS.Signals | undefined;

/** BENCH_TAPS_ENGINES: `chromium`, `firefox` or both (the default), comma-separated. */
function enginesToRun(): { chromium: boolean; firefox: boolean } {
  const names = (process.env.BENCH_TAPS_ENGINES ?? 'chromium,firefox')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  for (const name of names) {
    if (name !== 'chromium' && name !== 'firefox') {
      throw new Error(`BENCH_TAPS_ENGINES: unknown engine ${name} (chromium, firefox)`);
    }
  }
  return { chromium: names.includes('chromium'), firefox: names.includes('firefox') };
}

async function main(): Promise<number> {
  const dist = path.resolve(process.env.BENCH_DIST ?? path.join(REPO_ROOT, 'dist'));
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const engines = enginesToRun();
  if (!existsSync(path.join(dist, 'server', 'entry-server.js'))) {
    console.error(`bench:taps: the build in ${dist} is missing: run npm run build first`);
    return 2;
  }
  if (engines.chromium && !existsSync(chromePath)) {
    console.error(`bench:taps: Chromium not found at ${chromePath} (set CHROME_PATH)`);
    return 2;
  }
  if (engines.firefox && !existsSync(FIREFOX_PATH)) {
    console.error(`bench:taps: Firefox not found at ${FIREFOX_PATH} (set FIREFOX_PATH)`);
    return 2;
  }
  const [load1 = 0] = os.loadavg();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-taps-'));
  let server: RunningShop | undefined;
  let browser: Browser | undefined;
  // The temporary data goes only after the server has stopped, or its last write would bring
  // the folder back.
  const stop = stopOnce(
    async () => {
      await browser?.close().catch(() => {});
      await server?.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
    (signal) => (interruptedBy = signal),
  );
  const results: { engine: string; version: string; figures: DeadTapFigures; report: string }[] =
    [];
  try {
    server = await startBenchShop(dist, dataDir);
    if (engines.chromium) {
      browser = await chromium.launch({
        executablePath: chromePath,
        headless: true,
        args: CHROME_FLAGS,
        // Ctrl+C is handled above: Playwright's own handler would exit before the server stopped.
        handleSIGINT: false,
        handleSIGTERM: false,
      });
      const version = `Chromium ${browser.version()}`;
      const figures = await benchDeadTaps(browser, server.url);
      await browser.close();
      browser = undefined;
      results.push({ engine: 'Chromium', version, figures, report: 'bench-dead-taps.json' });
    }
    if (engines.firefox) {
      const version = await firefoxVersion();
      const figures = await benchDeadTapsFirefox(server.url);
      results.push({ engine: 'Firefox', version, figures, report: 'bench-dead-taps-firefox.json' });
    }
  } finally {
    await stop();
  }
  for (const { engine, version, figures, report } of results) {
    const throttled =
      engine === 'Firefox'
        ? 'slow 4G through a proxy, CPU not slowed (WebDriver BiDi has no CPU throttling)'
        : '4x CPU, slow 4G';
    console.log(
      `# Dead taps in ${engine} — ${new Date().toISOString()}\n\n${deadTapsTable(figures)}\n`,
    );
    console.log(
      `Machine: ${os.cpus().length} CPUs, load average ${load1.toFixed(2)} at the start, Node ${process.version}; ${version}; ${throttled}; ${figures.duration_s.toFixed(0)} s.\n`,
    );
    const file = path.join(REPO_ROOT, 'reports', report);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(figures, null, 2)}\n`);
  }
  return results.every(({ figures }) => figures.met) ? 0 : 1;
}

process.exitCode = await main().catch((error: unknown) => {
  if (interruptedBy) return 130;
  throw error;
});
