// Search in the production build: live results as the shopper types, the query kept in the URL
// (reload, back and forward), and no history entry per keystroke.
import { afterEach, describe, expect, test } from 'vitest';
import { baseUrl, control, openPage, setupBrowser } from './browser.ts';
import { apiPath, holdAnswers, sectionsAnswerFirst } from './held-answers.ts';

const browser = setupBrowser();

const NOTHING = 'По вашему запросу не нашлось товаров';

// A fault left by a failed test must not leak into the next one.
afterEach(async () => {
  const response = await fetch(`${baseUrl()}/__control/faults`, { method: 'DELETE' });
  expect(response.ok).toBe(true);
});

describe('search', () => {
  test('typing мал shows Малина, the URL holds q, and a reload keeps the results', async () => {
    const page = await openPage(browser(), '/search');
    // «Малина и ежевика» is a section: it shows when it answers with the products.
    await sectionsAnswerFirst(page);
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);

    await field.pressSequentially('мал', { delay: 60 });
    const raspberry = page.getByRole('link', { name: 'Малина', exact: true }).first();
    await raspberry.waitFor();
    expect(await raspberry.getAttribute('href')).toBe('/product/7');
    expect(new URL(page.url()).searchParams.get('q')).toBe('мал');
    await page.getByRole('link', { name: 'Малина и ежевика' }).first().waitFor();

    await page.reload();
    await raspberry.waitFor();
    expect(await page.getByRole('textbox', { name: 'Поиск' }).inputValue()).toBe('мал');
    expect(await page.getByText(NOTHING).count()).toBe(0);
  });

  test('typing adds no history entries; back and forward bring the search back', async () => {
    const page = await openPage(browser(), '/');
    await page.locator('header').getByRole('link', { name: 'Поиск' }).click();
    await page.waitForURL('**/search');
    await page.getByRole('textbox', { name: 'Поиск' }).pressSequentially('черн', { delay: 40 });
    await page.getByRole('link', { name: 'Черника', exact: true }).first().click();
    await page.waitForURL('**/product/20');

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/search');
    expect(new URL(page.url()).searchParams.get('q')).toBe('черн');
    expect(await page.getByRole('textbox', { name: 'Поиск' }).inputValue()).toBe('черн');
    await page.getByRole('link', { name: 'Черника', exact: true }).first().waitFor();

    // One entry for /search, whatever was typed: the back arrow returns to the home page.
    await page.getByRole('button', { name: 'Назад' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goForward();
    await page.waitForURL((url) => url.pathname === '/search');
    expect(await page.getByRole('textbox', { name: 'Поиск' }).inputValue()).toBe('черн');
  });

  test('«nothing found» shows only once a search has come back empty', async () => {
    const page = await openPage(browser(), '/search');
    const products = await holdAnswers(page, apiPath('/api/catalog/product_search'));
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.pressSequentially('ананас', { delay: 40 });
    // Asked, not answered yet: nothing is said.
    await products.asked;
    expect(await page.getByText(NOTHING).count()).toBe(0);
    products.release();
    await page.getByText(NOTHING).waitFor();

    await page.getByRole('button', { name: 'Очистить поиск' }).click();
    expect(await page.getByText(NOTHING).count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
  });

  test('a section that matches without products shows «nothing found» below it', async () => {
    // Seed: «Экзотические ягоды» is a section, and no product name has a word starting «экзот».
    const page = await openPage(browser(), '/search');
    await sectionsAnswerFirst(page);
    await page.goto('/search?q=экзот');
    const section = page.getByRole('link', { name: 'Экзотические ягоды' });
    await section.waitFor();
    const nothing = page.getByText(NOTHING);
    await nothing.waitFor();
    const below = await section.evaluate(
      (link, text) =>
        [...document.querySelectorAll('main *')].some(
          (node) =>
            node.textContent === text &&
            node.children.length === 0 &&
            Boolean(link.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING),
        ),
      NOTHING,
    );
    expect(below).toBe(true);
    expect(await page.getByRole('region', { name: 'Товары' }).count()).toBe(0);
  });

  test('a failing section search still shows the products found', async () => {
    await control('faults', { path: '/api/catalog/section_search', status: 500 });
    const page = await openPage(browser(), '/search?q=мал', {
      allowConsoleErrors: [/status of 500/],
    });
    await page.getByRole('link', { name: 'Малина', exact: true }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Малина и ежевика' }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByText(NOTHING).count()).toBe(0);
  });
});
