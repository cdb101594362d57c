// The shop as a browser without JavaScript (or a crawler) sees it: the server's HTML alone
// carries a visitor from the home page to a product, and the search form works as a plain GET.
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  assertClean,
  markDocument,
  baseUrl,
  hydrated,
  openPage,
  screenshot,
  setupBrowser,
} from './browser.ts';
import { openWithAppCodeHeld } from './held-app-code.ts';

const browser = setupBrowser();

describe('with JavaScript off', () => {
  test('home → catalogue → section → product: names, prices and stock are there', async () => {
    const page = await openPage(browser(), '/', { javaScriptEnabled: false });
    await page.getByRole('heading', { level: 1, name: 'Свежие ягоды' }).waitFor();

    await page.locator('header a[href="/catalog"]').click();
    await page.waitForURL('**/catalog');
    await page.locator('main a[href="/section/1"]').first().click();
    await page.waitForURL('**/section/1');
    await page.locator('main a[href="/section/8"]').first().click();
    await page.waitForURL('**/section/8');
    await page.locator('main a[href="/section/15"]').first().click();
    await page.waitForURL('**/section/15');
    const card = page.getByTestId('product-card').filter({ hasText: 'Малина' }).first();
    expect(await card.textContent()).toMatch(/890\s₽ \/ кг/);

    await page.locator('main a[href="/product/7"]').first().click();
    await page.waitForURL('**/product/7');
    await page.getByRole('heading', { level: 1, name: 'Малина' }).waitFor();
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toMatch(/890\s₽ \/ кг/);
    expect(main).toContain('в наличии 15 кг');
    expect(await page.title()).toBe('Ягодная лавка — Малина');
    // Nothing ran: the app never took the page over.
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    assertClean(page);
  });

  test('the search form sends the words as /search?q= and the results come back', async () => {
    const page = await openPage(browser(), '/', { javaScriptEnabled: false });
    const field = page.locator('main form[role="search"] input[name="q"]');
    await field.fill('малина');
    await field.press('Enter');
    await page.waitForURL(/\/search\?q=/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('малина');
    await page.locator('main a[href="/product/7"]').first().waitFor();
    assertClean(page);
  });
});

// Issue 19: the cookie notice's Продолжить is a form the shop's server handles, so it works
// without JavaScript and in the moment between the first paint and the app taking over.
const notice = (page: Page) => page.getByRole('region', { name: 'Уведомление о cookie' });

describe('the cookie notice without the app', () => {
  test('with JavaScript off, Продолжить hides the notice, back on the same page, and on the next', async () => {
    const page = await openPage(browser(), '/section/15?page=1', {
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    await notice(page).waitFor();
    await screenshot(page, 'cookie notice without javascript 390', { fullPage: false });
    await notice(page).getByRole('button', { name: 'Продолжить' }).click();
    await page.waitForURL((url) => url.pathname === '/section/15' && url.search === '?page=1');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await notice(page).count()).toBe(0);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'cookieAccepted');
    expect(cookie?.value).toBe('true');
    // Spec §9: 30 days.
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    await page.locator('header a[href="/catalog"]').click();
    await page.waitForURL('**/catalog');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await notice(page).count()).toBe(0);
    assertClean(page);
  });

  test('a tap on Продолжить at the first paint, before the app has arrived, takes effect', async () => {
    const page = await openPage(browser(), '/policy');
    const app = await openWithAppCodeHeld(page, '/catalog');
    // The app's code stays held: the page's load never ends, so the new page is awaited as
    // the post's answer and the server's HTML without the notice.
    const posted = page.waitForResponse((answer) => answer.url().endsWith('/cookie-consent'));
    await notice(page).getByRole('button', { name: 'Продолжить' }).click();
    expect((await posted).status()).toBe(303);
    await notice(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/catalog');
    app.release();
    await hydrated(page);
    expect(await notice(page).count()).toBe(0);
    await page.reload();
    expect(await notice(page).count()).toBe(0);
  });

  test('after the app has taken over, Продолжить hides the notice with no reload', async () => {
    const page = await openPage(browser(), '/catalog');
    const sameDocument = await markDocument(page);
    await notice(page).getByRole('button', { name: 'Продолжить' }).click();
    await notice(page).waitFor({ state: 'detached' });
    expect(await sameDocument()).toBe(true);
  });
});

describe("the cookie notice's form on the server", () => {
  const post = (headers: Record<string, string>, back: string) =>
    fetch(`${baseUrl()}/cookie-consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ back }).toString(),
    });

  test('a post from another site is refused and sets nothing', async () => {
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of crossSite) {
      const answer = await post(headers, '/catalog');
      expect(answer.status).toBe(403);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  test('it goes back only to a path on the shop: another host lands on /', async () => {
    const own = { origin: baseUrl(), 'sec-fetch-site': 'same-origin' };
    const back = async (to: string) => (await post(own, to)).headers.get('location');
    expect(await back('/search?q=малина')).toBe('/search?q=%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0');
    for (const away of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'x']) {
      expect(await back(away)).toBe('/');
    }
    // Behind a load balancer that ends TLS the shop is asked over http while the page's Origin
    // is https: the host decides, and the browser's Sec-Fetch-Site when it sends one.
    const https = `https://${new URL(baseUrl()).host}`;
    expect((await post({ origin: https }, '/catalog')).status).toBe(303);
    expect((await post({ origin: https, 'sec-fetch-site': 'same-origin' }, '/')).status).toBe(303);
    const answer = await post(own, '/catalog');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('set-cookie')).toMatch(
      /^cookieAccepted=true; Max-Age=2592000; Path=\//,
    );
  });
});

// Issue 19: the footer's theme toggle is a form too; the server renders the chosen theme from the
// first byte (a cookie mirror of the local-storage choice), so the next page has no light flash.
const schemeOf = (page: Page) => page.locator('html').getAttribute('data-mantine-color-scheme');
const themeToggle = (page: Page) =>
  page.locator('footer').getByRole('button', { name: 'Переключить тему' });
// The html element's own attribute (the page's CSS names the same attribute in its selectors).
const SERVER_DARK = /<html[^>]* data-mantine-color-scheme="dark"/;

describe('the theme toggle without the app', () => {
  test('with JavaScript off it switches the theme, and the next page comes dark from the server', async () => {
    const page = await openPage(browser(), '/catalog', {
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    expect(await schemeOf(page)).toBe('light');
    await themeToggle(page).click();
    await expect.poll(() => schemeOf(page)).toBe('dark');
    expect(new URL(page.url()).pathname).toBe('/catalog');

    const next = await page.goto('/section/1');
    expect(await next?.text()).toMatch(SERVER_DARK);
    expect(await schemeOf(page)).toBe('dark');
    await screenshot(page, 'theme dark without javascript 390');

    await themeToggle(page).click();
    await expect.poll(() => schemeOf(page)).toBe('light');
    assertClean(page);
  });

  test('a tap at the first paint, before the app has arrived, switches the theme and it stays', async () => {
    const page = await openPage(browser(), '/policy');
    const app = await openWithAppCodeHeld(page, '/catalog');
    const posted = page.waitForResponse((answer) => answer.url().endsWith('/theme'));
    await themeToggle(page).click();
    expect((await posted).status()).toBe(303);
    await expect.poll(() => schemeOf(page)).toBe('dark');
    app.release();
    await hydrated(page);
    expect(await schemeOf(page)).toBe('dark');
    expect(await themeToggle(page).getAttribute('title')).toBe('Светлая тема');
  });

  test('after the app has taken over, the theme it switches is the one the next page comes in', async () => {
    const page = await openPage(browser(), '/catalog');
    await themeToggle(page).click();
    await expect.poll(() => schemeOf(page)).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    const next = await page.goto('/section/1');
    expect(await next?.text()).toMatch(SERVER_DARK);
    expect(await schemeOf(page)).toBe('dark');
  });
});
