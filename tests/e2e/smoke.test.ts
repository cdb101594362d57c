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

  test('on a phone, the cookie notice never hides the footer: at the end of the page it sits below', async () => {
    const page = await openPage(browser(), '/catalog', { viewport: { width: 390, height: 844 } });
    await page.getByRole('region', { name: 'Уведомление о cookie' }).waitFor();
    await page.locator('footer').getByRole('link', { name: 'Новости' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // What a tap in the middle of each footer control would reach.
    const covered = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('footer a, footer button')]
        .filter((control) => {
          const box = control.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return !control.contains(hit);
        })
        .map((control) => control.textContent || control.getAttribute('aria-label')),
    );
    expect(covered).toEqual([]);
  });
});
