// Helpers for the e2e tests: one Chromium per test file, a fresh context per page (own cookies
// and localStorage), and a record of everything that must not happen on a healthy page:
// console errors, uncaught page errors and requests leaving the machine. Non-local requests
// are aborted, so a test never waits on the internet.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type LaunchOptions,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { REDRAWN_AT_START } from '../../src/ui/hydration.ts';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Headless, and nothing reaching out to the internet on its own (the benches' Chromium too). */
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'reports', 'screenshots');

/**
 * Fail a locator or navigation after this long (navigation: twice as long), well inside the
 * test timeout. Generous: it only bounds a failing wait, and a loaded CI machine is slow.
 */
const DEFAULT_TIMEOUT_MS = 20_000;

export type Problem =
  | { kind: 'console'; text: string; url: string }
  | { kind: 'pageerror'; text: string }
  /** React drew part of the server's page anew as it took it over (no test may allow it). */
  | { kind: 'redrawn'; text: string }
  | { kind: 'external-request'; url: string };

export interface OpenPageOptions {
  /**
   * The shop's theme, set before the page opens as the visitor's toggle leaves it (its cookie,
   * which the server renders), with the browser's preference to match. The browser's preference
   * alone changes nothing: the shop opens light whatever the system prefers. Default: light.
   */
  theme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** Console errors whose text matches one of these are expected (e.g. a test-injected 500). */
  allowConsoleErrors?: (string | RegExp)[];
  /** Hosts the page may try to reach (e.g. an embedded news widget); still aborted, not reported. */
  allowHosts?: string[];
  /** false: the page as a browser without JavaScript (or a crawler) sees it. */
  javaScriptEnabled?: boolean;
  /** When page.goto counts the first navigation as done. Default: 'load', then hydrated. */
  waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit';
  /** Another shop than the suite's (a server the test started itself). */
  baseURL?: string;
  /** The browser's time zone; default Moscow, the shop's. */
  timezoneId?: string;
  /** Sent with every request (what nginx in front would add). */
  extraHTTPHeaders?: Record<string, string>;
}

interface Tracked {
  context: BrowserContext;
  problems: Problem[];
}

const tracked = new Map<Page, Tracked>();

/** The address of the production server started by global-setup.ts, without a trailing slash. */
export function baseUrl(): string {
  return inject('baseUrl').replace(/\/+$/, '');
}

function isLocalHost(hostname: string): boolean {
  return (
    hostname === '127.0.0.1' ||
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    hostname.endsWith('.localhost')
  );
}

/** True for network URLs (http, https, ws, wss) that point away from this machine. */
function isExternal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  return !isLocalHost(parsed.hostname);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function matchesAny(text: string, patterns: (string | RegExp)[]): boolean {
  return patterns.some((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)));
}

/**
 * Launches the system Chromium. Call once per test file (see setupBrowser); a bench adds its
 * `options` (it handles Ctrl+C itself, to stop its servers after the browser).
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(
      `e2e: Chromium not found at ${CHROME_PATH}. Install it (apt-get install chromium) or set CHROME_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROME_PATH,
    headless: true,
    args: LAUNCH_ARGS,
    ...options,
  });
}

/**
 * Opens `pathname` (relative to the server, e.g. '/catalog') in a NEW browser context:
 * fresh cookies and localStorage, Russian locale, Moscow time. Console errors, page errors
 * and non-local requests are recorded for assertClean(); non-local requests are aborted.
 */
export async function openPage(
  browser: Browser,
  pathname: string,
  options: OpenPageOptions = {},
): Promise<Page> {
  const allowConsole = options.allowConsoleErrors ?? [];
  const allowHosts = options.allowHosts ?? [];
  const contextOptions: BrowserContextOptions = {
    baseURL: options.baseURL ?? baseUrl(),
    locale: 'ru-RU',
    timezoneId: options.timezoneId ?? 'Europe/Moscow',
    ...(options.extraHTTPHeaders ? { extraHTTPHeaders: options.extraHTTPHeaders } : {}),
    colorScheme: options.theme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: 'block',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  };
  const context = await browser.newContext(contextOptions);
  if (options.theme) {
    await context.addCookies([
      { name: 'theme', value: options.theme, url: contextOptions.baseURL as string },
    ]);
  }
  const problems: Problem[] = [];
  const allowedHost = (url: string): boolean => allowHosts.includes(hostOf(url));

  try {
    await context.route(
      (url) => isExternal(url.href),
      (route) => route.abort('blockedbyclient'),
    );
    context.on('request', (request) => {
      const url = request.url();
      if (isExternal(url) && !allowedHost(url)) problems.push({ kind: 'external-request', url });
    });
    context.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(DEFAULT_TIMEOUT_MS * 2);

    const page = await context.newPage();
    // Pages the server answered 404 (its 404 page): Chromium logs the status, as it should.
    const notFoundPages = new Set<string>();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.status() === 404) {
        notFoundPages.add(response.url());
      }
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      const url = message.location().url;
      if (text.startsWith(REDRAWN_AT_START)) {
        problems.push({ kind: 'redrawn', text });
        return;
      }
      if (matchesAny(text, allowConsole)) return;
      if (text.includes('status of 404') && notFoundPages.has(url)) return;
      // A blocked request to an allowed host logs "Failed to load resource": expected too.
      if (url && isExternal(url) && allowedHost(url)) return;
      problems.push({ kind: 'console', text, url });
    });
    page.on('pageerror', (error) => {
      problems.push({ kind: 'pageerror', text: error.stack ?? String(error) });
    });
    page.on('websocket', (socket) => {
      const url = socket.url();
      if (isExternal(url) && !allowedHost(url)) problems.push({ kind: 'external-request', url });
    });
    tracked.set(page, { context, problems });

    if (options.javaScriptEnabled !== false) waitForAppOnNavigations(page);
    // Without a waitUntil of its own, goto waits for `load`, then for the app (above).
    await page.goto(pathname, options.waitUntil ? { waitUntil: options.waitUntil } : {});
    return page;
  } catch (error) {
    await closePage(context);
    throw error;
  }
}

/**
 * Makes the page's goto() and reload() wait, unless told what to wait for, until the app has
 * taken the new page over. The server's HTML is on screen before the app's code is even asked
 * for (it starts after the first paint), so a click right after `load` would reach buttons that
 * do nothing yet.
 */
function waitForAppOnNavigations(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (!options?.waitUntil) await hydrated(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (!options?.waitUntil) await hydrated(page);
    return response;
  };
}

/**
 * Waits until the app has taken over the server's HTML (src/app/App.tsx marks it): before that,
 * a click reaches a page whose buttons do nothing yet.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/**
 * Lets the page run what is pending: React's scheduler (and the app's own queued jobs) run on
 * message events, which a paused fake clock does not hold back, so a few round trips through a
 * MessageChannel suffice.
 */
export async function reactTurns(page: Page, turns = 3): Promise<void> {
  await page.evaluate(async (count) => {
    for (let turn = 0; turn < count; turn += 1) {
      await new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        channel.port2.postMessage(null);
      });
    }
  }, turns);
}

async function closePage(context: BrowserContext): Promise<void> {
  for (const [page, entry] of tracked) {
    if (entry.context === context) tracked.delete(page);
  }
  await context.close().catch(() => {});
}

/** What went wrong on this page so far (console errors, page errors, external requests). */
export function problemsOf(page: Page): readonly Problem[] {
  return tracked.get(page)?.problems ?? [];
}

function describeProblem(problem: Problem): string {
  switch (problem.kind) {
    case 'console':
      return `console.error: ${problem.text}${problem.url ? ` (at ${problem.url})` : ''}`;
    case 'pageerror':
      return `uncaught error: ${problem.text}`;
    case 'redrawn':
      return `hydration gave up (onRecoverableError): ${problem.text}`;
    case 'external-request':
      return `request to a non-local host: ${problem.url}`;
  }
}

/** Throws, listing them, if the page logged a console error, threw, or reached off-machine. */
export function assertClean(page: Page): void {
  const problems = problemsOf(page);
  if (problems.length === 0) return;
  const list = problems.map((p) => `  - ${describeProblem(p)}`).join('\n');
  throw new Error(`page ${page.url()} was not clean (${problems.length}):\n${list}`);
}

function safeFileName(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 120) || 'screenshot';
}

/** Saves a PNG (the full page, unless told otherwise) to reports/screenshots/<name>.png. */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${safeFileName(name)}.png`);
  // Beyond the viewport the browser skips drawing what is `content-visibility: auto` (issue 44's
  // home blocks) until a scroll brings it near: a full page is drawn as scrolling would show it.
  // Playwright's own style option: it needs no script in the page (some tests turn it off).
  const style = fullPage ? '* { content-visibility: visible !important; }' : undefined;
  await page.screenshot({ path: file, fullPage, ...(style ? { style } : {}) });
  return file;
}

/**
 * POSTs `body` as JSON to one of the stub's control endpoints, e.g.
 * control('/__control/reset') or control('faults', { ... }). Returns the parsed JSON answer
 * (or null when the answer is empty) and throws on a non-2xx status.
 */
export async function control(endpoint: string, body: unknown = {}): Promise<unknown> {
  const suffix = endpoint.replace(/^\/+/, '').replace(/^__control\//, '');
  const url = `${baseUrl()}/__control/${suffix}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`control ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  }
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Registers the per-file lifecycle and returns a getter for the shared browser:
 * - beforeAll launches Chromium, afterAll closes it (also after failures);
 * - afterEach screenshots the pages of a failed or unclean test into reports/screenshots/,
 *   closes every context the test opened, and then fails the test if any page was not clean.
 */
export function setupBrowser(): () => Browser {
  let browser: Browser | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async (context) => {
    const pages = [...tracked.keys()];
    const failed = context.task.result?.state === 'fail';
    const errors: string[] = [];
    for (const [index, page] of pages.entries()) {
      if ((failed || problemsOf(page).length > 0) && !page.isClosed()) {
        const name = `FAILED ${context.task.name}${pages.length > 1 ? ` ${index + 1}` : ''}`;
        await screenshot(page, name).catch(() => {});
      }
      try {
        assertClean(page);
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }
    const contexts = new Set(pages.map((page) => tracked.get(page)?.context));
    for (const ctx of contexts) if (ctx) await closePage(ctx);
    if (errors.length > 0) throw new Error(errors.join('\n'));
  });

  afterAll(async () => {
    for (const entry of tracked.values()) await entry.context.close().catch(() => {});
    tracked.clear();
    await browser?.close();
    browser = undefined;
  });

  return () => {
    if (!browser)
      throw new Error('e2e: the browser is not running (call setupBrowser() at top level)');
    return browser;
  };
}

/**
 * Marks the document now on screen; the returned check says whether it is still the same one
 * (the app handled what followed) or the browser loaded another (a form posted, a reload).
 */
export async function markDocument(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => ((window as { shopMark?: boolean }).shopMark = true));
  return async () => page.evaluate(() => (window as { shopMark?: boolean }).shopMark === true);
}
