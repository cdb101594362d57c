// The shop as a browser without JavaScript (or a crawler) sees it: the server's HTML alone
// carries a visitor from the home page to a product, and the search form works as a plain GET.
import { describe, expect, test } from 'vitest';
import { assertClean, openPage, setupBrowser } from './browser.ts';

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
