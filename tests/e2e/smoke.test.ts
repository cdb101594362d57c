// Smoke test of the production build: the shell renders cleanly and the theme toggle persists.
import { describe, expect, test } from 'vitest';
import { openPage, setupBrowser } from './browser.ts';

const browser = setupBrowser();

describe('smoke', () => {
  test('the home page loads with its header logo and footer policy link', async () => {
    const page = await openPage(browser(), '/');

    const logo = page.locator('header a[href="/"]').first();
    await logo.waitFor({ state: 'visible' });

    const policy = page
      .locator('footer')
      .getByRole('link', { name: 'Политика конфиденциальности' });
    await policy.waitFor({ state: 'visible' });
    expect(await policy.getAttribute('href')).toBe('/policy');
  });

  test('the footer theme toggle switches to dark, and dark survives a reload', async () => {
    const page = await openPage(browser(), '/');
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');

    await expect.poll(scheme).toBe('light');
    await page.locator('footer').getByRole('button', { name: 'Переключить тему' }).click();
    await expect.poll(scheme).toBe('dark');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');

    await page.reload();
    await page.locator('footer').getByRole('button', { name: 'Переключить тему' }).waitFor();
    await expect.poll(scheme).toBe('dark');
  });
});
