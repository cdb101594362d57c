// Search in the production build: live results as the shopper types, the query kept in the URL
// (reload, back and forward), and no history entry per keystroke.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { baseUrl, control, hydrated, openPage, reactTurns, setupBrowser } from './browser.ts';
import { openWithAppCodeHeld } from './held-app-code.ts';
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
    await page.getByRole('link', { name: 'Назад' }).click();
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

    await page.getByRole('link', { name: 'Очистить поиск' }).click();
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

/** What kind of search each of the two calls asks for, by its path. */
const SEARCH_CALLS: Record<string, string> = {
  '/api/catalog/product_search': 'products',
  '/api/catalog/section_search': 'sections',
};

/**
 * Records the search calls the page sends from now on, each as `«q» products` or
 * `«q» sections`; the getter lists them sorted, so a pair reads the same in either order.
 */
function recordSearches(page: Page): () => string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const kind = SEARCH_CALLS[url.pathname];
    if (kind) sent.push(`«${url.searchParams.get('q') ?? ''}» ${kind}`);
  });
  return () => [...sent].sort();
}

/** The pair of calls one search sends for `q`. */
const pair = (q: string) => [`«${q}» products`, `«${q}» sections`];

/**
 * Reloads the page with its clock in the test's hands, then stops it: the 500 ms pause runs out
 * when the test moves time, never because a keystroke came late on a busy machine.
 */
async function stopTime(page: Page): Promise<void> {
  await page.clock.install();
  await page.reload();
  // A jump well ahead of the page's clock (which cannot go back), then time stands still.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
}

// Spec §2, §9: a search runs on submit, on the search icon and after a 500 ms pause in typing;
// the URL's q follows each key without asking anything. Calls go out in order, so once a later
// search's pair has been seen, a call that an earlier key or Enter sent would be in the list.
describe('the calls a search sends', () => {
  test('one pair per pause or submit; keys and an Enter after the pause send nothing', async () => {
    const page = await openPage(browser(), '/search');
    await stopTime(page);
    const searches = recordSearches(page);
    const field = page.getByRole('textbox', { name: 'Поиск' });

    await field.pressSequentially('мал');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('мал');
    await page.clock.runFor(499);
    await reactTurns(page);
    expect(searches()).toEqual([]);
    await page.clock.runFor(1);
    await expect.poll(searches).toEqual(pair('мал'));
    await page.getByRole('link', { name: 'Малина', exact: true }).first().waitFor();

    // Enter after the pause: the text is searched already.
    await field.press('Enter');
    // The search icon searches at once, and cancels the pause.
    await field.pressSequentially('и');
    await page.getByRole('button', { name: 'Найти' }).click();
    await expect.poll(searches).toEqual([...pair('мал'), ...pair('мали')].sort());
    await page.clock.runFor(1000);

    // The icon has the focus now: back to the field, at the end of its text.
    await field.press('End');
    await field.pressSequentially('н');
    await page.clock.runFor(500);
    await expect.poll(searches).toEqual([...pair('мал'), ...pair('мали'), ...pair('малин')].sort());
  });

  test('a page opened at ?q= asks again only after the pause in the next typing', async () => {
    const page = await openPage(browser(), '/search?q=мал');
    await stopTime(page);
    const field = page.getByRole('textbox', { name: 'Поиск' });
    // Answered by the server, or by the browser if the server's answer was late: done either way.
    await page.getByRole('link', { name: 'Малина', exact: true }).first().waitFor();
    const searches = recordSearches(page);

    await field.press('End');
    await field.pressSequentially('и');
    await page.clock.runFor(500);
    await expect.poll(searches).toEqual(pair('мали'));
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('мали');
  });
});

// Issue 19: the server's field takes keys before the app's code has arrived; what the shopper
// typed there is theirs, and the app takes it over instead of writing it away.
describe('text typed before the app takes over', () => {
  /** Opens `path` with the app's code held back, so its fields are the server's plain inputs. */
  async function beforeApp(path: string): Promise<{ page: Page; release: () => Promise<void> }> {
    const page = await openPage(browser(), '/policy');
    const app = await openWithAppCodeHeld(page, path);
    return {
      page,
      release: async () => {
        app.release();
        await hydrated(page);
      },
    };
  }

  test("«клубника» typed into the server's field stays, goes into the URL and is searched", async () => {
    const { page, release } = await beforeApp('/search');
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.pressSequentially('клубника');
    const searched = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return (
        url.pathname === '/api/catalog/product_search' && url.searchParams.get('q') === 'клубника'
      );
    });
    await release();
    await searched;
    await page.getByRole('link', { name: 'Клубника садовая' }).first().waitFor();
    expect(await field.inputValue()).toBe('клубника');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('клубника');
  });

  test('a word begun before the app took over and finished after keeps its first letters', async () => {
    const { page, release } = await beforeApp('/search');
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.pressSequentially('смо');
    await release();
    await field.press('End');
    await field.pressSequentially('род');
    await page.getByRole('link', { name: 'Смородина чёрная', exact: true }).first().waitFor();
    expect(await field.inputValue()).toBe('смород');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('смород');
  });

  test("the home page's search line hands on the words typed before the app took over", async () => {
    const { page, release } = await beforeApp('/');
    await page.getByRole('searchbox', { name: 'Поиск' }).pressSequentially('клубника');
    await release();
    await page.getByRole('searchbox', { name: 'Поиск' }).press('Enter');
    await page.waitForURL((url) => url.pathname === '/search');
    expect(new URL(page.url()).searchParams.get('q')).toBe('клубника');
    await page.getByRole('link', { name: 'Клубника садовая' }).first().waitFor();
  });
});
