// Shared by the failure-injection and bad-input e2e files: their set-up, the stub's fault
// control, the basket as the stub holds it for a browser, and the console errors a failed request
// causes by itself.
import type { Browser, Page } from 'playwright-core';
import { afterEach, beforeEach, expect } from 'vitest';
import type { FailureCase } from '../../src/api/call-failure.ts';
import { baseUrl, control, setupBrowser } from './browser.ts';

export interface FaultKind {
  name: string;
  spec: { status: number } | { network_error: true };
  /** What the shopper is told of it: the backend answered with an error, or never answered. */
  failure: FailureCase;
  /**
   * Chromium logs every failed request as a console error by itself; that message comes from the
   * browser, not from the app, so it is the one console error such a test lets through. Anything
   * else the app logs, any uncaught error and any unhandled rejection (Playwright reports those
   * as `pageerror` too; checked) still fails the test.
   */
  console: RegExp;
}

export const SERVER_ERROR: FaultKind = {
  name: '500',
  spec: { status: 500 },
  failure: 'error',
  console: /^Failed to load resource: the server responded with a status of 500 /,
};

export const NETWORK_ERROR: FaultKind = {
  name: 'network error',
  spec: { network_error: true },
  failure: 'unreachable',
  console: /^Failed to load resource: net::ERR_[A-Z_]+$/,
};

export const FAULT_KINDS = [SERVER_ERROR, NETWORK_ERROR];

/** Makes `path` (exact, or a prefix ending at `/`) fail the way `kind` says. */
export async function injectFault(
  kind: FaultKind,
  path: string,
  options: { method?: string; times?: number } = {},
): Promise<void> {
  await control('faults', { path, ...options, ...kind.spec });
}

export async function clearFaults(): Promise<void> {
  const response = await fetch(`${baseUrl()}/__control/faults`, { method: 'DELETE' });
  expect(response.ok).toBe(true);
}

/**
 * The set-up of a file that breaks the stub on purpose: one browser for the file (setupBrowser),
 * the stub's data re-seeded before each test, and its faults cleared after each, so that a fault
 * left by a failed test leaks into neither the next test nor the next file.
 */
export function browserOnCleanStub(): () => Browser {
  const browser = setupBrowser();
  beforeEach(async () => {
    await control('/__control/reset');
  });
  afterEach(clearFaults);
  return browser;
}

/**
 * The `sessionid` the stub gave this page's browser context. The page's first requests leave
 * together without a cookie and each gets a session of its own; the last answer's cookie is the
 * one that stays, so this waits for the page to go quiet before it reads it.
 */
export async function sessionOf(page: Page): Promise<string> {
  await page.waitForLoadState('networkidle');
  const find = async () =>
    (await page.context().cookies()).find((cookie) => cookie.name === 'sessionid')?.value;
  // A page for everyone carries no cookie: without the app a visitor's session starts with their
  // first basket call (a basket form's, or the basket's own as here).
  if (!(await find())) await page.request.get(new URL('/api/catalog/basket', page.url()).href);
  await expect.poll(find).toBeTruthy();
  return (await find()) as string;
}

/** Puts these lines (product id -> amount) into this browser's basket on the stub. */
export async function setServerBasket(page: Page, lines: Record<number, number>): Promise<void> {
  await control('state', { basket: { owner: `session:${await sessionOf(page)}`, lines } });
  // As the shop marks a basket that has lines (a form that landed, the app): the visitor's pages
  // are their own from now on.
  const url = page.url();
  if (Object.keys(lines).length > 0) {
    await page.context().addCookies([{ name: 'basket', value: '1', url }]);
  }
}

/** The basket as the stub holds it for this browser: product id -> amount. */
export async function serverBasket(page: Page): Promise<Record<string, number>> {
  const response = await fetch(`${baseUrl()}/__control/state`);
  const state = (await response.json()) as {
    baskets: Record<string, { lines: Record<string, number> }>;
  };
  return { ...state.baskets[`session:${await sessionOf(page)}`]?.lines };
}

/** Skips the cookie notice, so it covers nothing a test clicks. */
export async function acceptCookies(page: Page): Promise<void> {
  await page.context().addCookies([{ name: 'cookieAccepted', value: 'true', url: baseUrl() }]);
}

/** Money as the page prints it: Intl puts no-break spaces in it. */
export const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ').trim();

/** Presses a form's button and waits for the page the server answers with. */
export async function submit(page: Page, button: string | RegExp, action: string): Promise<number> {
  const answered = page.waitForResponse((answer) => new URL(answer.url()).pathname === action);
  await page.locator('main').getByRole('button', { name: button }).first().click();
  const status = (await answered).status();
  await page.waitForLoadState('load');
  return status;
}
