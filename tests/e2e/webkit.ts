// WebKit for the e2e tests: Safari's engine as Debian ships it, WebKitGTK (webkit2gtk-driver's
// WebKitWebDriver, which drives its MiniBrowser), over classic WebDriver with selenium-webdriver,
// in an X server of its own (Xvfb). playwright-core drives only its own patched WebKit, which
// cannot be downloaded here. The driver and the X server start once per file and are stopped by
// their process ids after it; each test opens a session of its own (a fresh MiniBrowser: own
// cookies and cache).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Builder, type WebDriver } from 'selenium-webdriver';
import { afterAll, afterEach } from 'vitest';

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB_PATH = '/usr/bin/Xvfb';

/** Bounds a failing wait only, as in browser.ts: a loaded CI machine is slow. */
const START_TIMEOUT_MS = 30_000;

/** A port nobody listens on now (the driver takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts Xvfb on a display number it picks itself (-displayfd): no clash with another one. */
function startXvfb(): Promise<{ process: ChildProcess; display: string }> {
  return new Promise((resolve, reject) => {
    const xvfb = spawn(
      XVFB_PATH,
      ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      },
    );
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`e2e: Xvfb exited (${code}) before it started`)));
    let number = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      number += chunk.toString();
      if (number.includes('\n')) resolve({ process: xvfb, display: `:${number.trim()}` });
    });
  });
}

/** Waits until the driver answers its status, ready for a session. */
async function driverReady(url: string, driver: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error('e2e: WebKitWebDriver exited as it started');
    try {
      const status = (await (await fetch(`${url}/status`)).json()) as {
        value?: { ready?: boolean };
      };
      if (status.value?.ready) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`e2e: WebKitWebDriver did not answer at ${url} within ${START_TIMEOUT_MS} ms`);
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface WebKitOptions {
  /** false: MiniBrowser with WebKitSettings' enable-javascript off (the driver's scripts run). */
  javaScriptEnabled?: boolean;
}

/**
 * Registers the file's WebKitWebDriver (started when first asked for, under an Xvfb of its own,
 * stopped after the file) and returns a function that opens a new session; sessions are ended
 * after their test.
 */
export function setupWebKit(): (options?: WebKitOptions) => Promise<WebDriver> {
  let started: Promise<{ url: string; xvfb: ChildProcess; driver: ChildProcess }> | undefined;
  const sessions: WebDriver[] = [];

  const start = async () => {
    for (const [what, file] of [
      ['WebKitWebDriver', WEBKIT_DRIVER_PATH],
      ['Xvfb', XVFB_PATH],
    ] as const) {
      if (!existsSync(file)) {
        throw new Error(
          `e2e: ${what} not found at ${file}. Install it (apt-get install webkit2gtk-driver xvfb).`,
        );
      }
    }
    const xvfb = await startXvfb();
    const port = await freePort();
    const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, '--host=127.0.0.1'], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await driverReady(url, driver);
    } catch (error) {
      await stop(driver);
      await stop(xvfb.process);
      throw error;
    }
    return { url, xvfb: xvfb.process, driver };
  };

  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.quit().catch(() => {});
  });
  afterAll(async () => {
    if (!started) return;
    const { xvfb, driver } = await started;
    await stop(driver);
    await stop(xvfb);
    started = undefined;
  });

  return async ({ javaScriptEnabled = true } = {}) => {
    started ??= start();
    const { url } = await started;
    const session = await new Builder()
      .usingServer(url)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': {
          binary: MINIBROWSER_PATH,
          args: ['--automation', ...(javaScriptEnabled ? [] : ['--enable-javascript=false'])],
        },
      })
      .build();
    sessions.push(session);
    await session
      .manage()
      .setTimeouts({ pageLoad: START_TIMEOUT_MS * 2, script: START_TIMEOUT_MS });
    return session;
  };
}
