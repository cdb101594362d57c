// Slow answers (issue 8): each main page must show its frame (header, footer) and a loading state
// (a skeleton or loader marked aria-busy) while its calls are on their way, never a blank
// screen, and its content once the answers come. Actions (the order, the login, a search) show
// that they are under way and keep the page usable; basket-saving.test.ts covers a basket change.
// The test holds every answer (held-answers.ts) until it has seen what shows meanwhile, so no
// check depends on how fast the machine is; how soon the loading state shows is for the bench.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { hydrated, openPage, screenshot } from './browser.ts';
import { acceptCookies, browserOnCleanStub, plain, setServerBasket } from './failures-helpers.ts';
import { apiPath, holdAnswers } from './held-answers.ts';

const browser = browserOnCleanStub();

const RASPBERRY = { id: 7, name: 'Малина' };
const API = apiPath('/api/');

/** A loading state in the page's main part: announced as busy, or a visible skeleton or loader. */
const loadingState = (page: Page) =>
  page
    .locator('main')
    .locator(
      '[aria-busy="true"]:visible, .mantine-Skeleton-root:visible, .mantine-Loader-root:visible',
    )
    .first();

/**
 * Looks at the page once a frame until `content` shows: each look must find the content or a
 * loading state. Returns the looks (numbered from 1) that showed neither: a blank screen.
 */
async function blankLooksUntil(page: Page, content: Locator): Promise<number[]> {
  const blank: number[] = [];
  for (let look = 1; !(await content.isVisible()); look += 1) {
    if (!(await loadingState(page).isVisible()) && !(await content.isVisible())) blank.push(look);
    await page.evaluate(() => new Promise(requestAnimationFrame));
  }
  return blank;
}

/**
 * Opens `path` as a link inside the app does: the server sends a first page with its data, so
 * a page that waits for its answers is one the browser renders.
 */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => window.history.pushState(null, '', to), path);
}

async function expectFrame(page: Page): Promise<void> {
  expect(await page.locator('header a[href="/"]').first().isVisible()).toBe(true);
  expect(
    await page
      .locator('footer')
      .getByRole('link', { name: 'Политика конфиденциальности' })
      .isVisible(),
  ).toBe(true);
}

/** A browser with a session (and its basket set up), before anything is slowed down. */
async function freshPage(lines?: Record<number, number>): Promise<Page> {
  const page = await openPage(browser(), '/login/', {
    // Telegram's widget (on /news) is tried and blocked here: by the test, or, after a
    // navigation inside the app, by the login page's policy, which only /news relaxes.
    allowHosts: ['telegram.org'],
    allowConsoleErrors: [/telegram-widget\.js.*Content Security Policy/],
  });
  await acceptCookies(page);
  if (lines) await setServerBasket(page, lines);
  return page;
}

const PAGES: { path: string; content: (page: Page) => Locator; basket?: boolean }[] = [
  { path: '/', content: (page) => page.getByRole('link', { name: 'Сезонные хиты', exact: true }) },
  {
    path: '/catalog',
    content: (page) => page.getByRole('main').getByRole('link', { name: 'Ягоды', exact: true }),
  },
  { path: '/section/1', content: (page) => page.getByRole('heading', { level: 1, name: 'Ягоды' }) },
  {
    path: '/selection/1',
    content: (page) => page.getByRole('heading', { level: 1, name: 'Сезонные хиты' }),
  },
  {
    path: `/product/${RASPBERRY.id}`,
    content: (page) => page.getByRole('heading', { level: 1, name: RASPBERRY.name }),
  },
  {
    path: '/search?q=малина',
    content: (page) => page.getByRole('main').getByRole('link', { name: 'Малина', exact: true }),
  },
  {
    path: '/order',
    content: (page) => page.getByRole('article', { name: RASPBERRY.name }),
    basket: true,
  },
  {
    path: '/commit',
    content: (page) => page.getByRole('button', { name: 'Подтвердить' }),
    basket: true,
  },
  { path: '/order_status', content: (page) => page.getByText('У вас пока нет заказов') },
  { path: '/policy', content: (page) => page.getByRole('link', { name: 'Посмотреть' }) },
  { path: '/news', content: (page) => page.getByRole('link', { name: 'Открыть в Telegram' }) },
];

describe('while every /api answer is on its way', () => {
  for (const { path, content, basket } of PAGES) {
    if (basket) {
      test(`${path}: the visitor's basket comes with the page; nothing waits for the browser's calls`, async () => {
        const page = await freshPage({ [RASPBERRY.id]: 1.5 });
        const answers = await holdAnswers(page, API);
        await page.goto(path, { waitUntil: 'commit' });
        // The server rendered the basket: its content shows while the browser's own calls
        // (the start-up refresh) are still held.
        await content(page).first().waitFor();
        await expectFrame(page);
        expect(await loadingState(page).count()).toBe(0);
        await answers.asked;
        answers.release();
        await hydrated(page);
        expect(await content(page).count()).toBeGreaterThan(0);
      });
      continue;
    }
    test(`${path}: the frame and a loading state, then the content`, async () => {
      const page = await freshPage();
      const answers = await holdAnswers(page, API);

      // A public page's data loads in the browser after a navigation inside the app.
      await navigateInApp(page, path);
      await loadingState(page).waitFor();
      // The page has asked and its answers are held: what shows is the loading state.
      await answers.asked;
      await expectFrame(page);
      expect(await content(page).count()).toBe(0);
      await screenshot(page, `slow ${path} loading`);

      // From the loading state to the content, never a look with neither.
      const blank = blankLooksUntil(page, content(page).first());
      answers.release();
      expect(await blank).toEqual([]);
      await expect.poll(() => loadingState(page).count()).toBe(0);
    });
  }

  test('/: the header still works while the page loads', async () => {
    const page = await freshPage();
    const answers = await holdAnswers(page, API);
    await navigateInApp(page, '/');
    await loadingState(page).waitFor();
    await page.locator('header').getByRole('link', { name: 'Каталог' }).click();
    await page.waitForURL((url) => url.pathname === '/catalog');
    await page.getByRole('heading', { level: 1, name: 'Каталог' }).waitFor();
    await loadingState(page).waitFor();
    answers.release();
    await page.getByRole('main').getByRole('link', { name: 'Ягоды', exact: true }).waitFor();
  });
});

describe('slow actions show that they are under way', () => {
  test('a slow order: the button shows it is sending and nothing can be sent twice', async () => {
    const page = await freshPage({ [RASPBERRY.id]: 1.5 });
    await page.goto('/commit');
    await hydrated(page);
    const phone = page.getByRole('textbox', { name: 'Телефон' });
    await phone.click();
    await phone.pressSequentially('9123456789');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();

    const order = await holdAnswers(page, apiPath('/api/catalog/order_commit'), 'POST');
    const submit = page.getByRole('button', { name: 'Подтвердить' });
    await submit.click();
    await order.asked;
    await expect.poll(() => submit.getAttribute('data-loading')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);
    // An impatient second click goes nowhere.
    await submit.click({ force: true });
    expect(await phone.isDisabled()).toBe(true);
    await screenshot(page, 'slow order sending');
    expect(order.count()).toBe(1);

    order.release();
    await page.waitForURL((url) => url.pathname === '/order_status');
    await page.getByTestId('order').first().waitFor();
    expect(await page.getByTestId('order').count()).toBe(1);
    expect(order.count()).toBe(1);
  });

  test('a slow login: the button shows it is working, then the shopper is in', async () => {
    const page = await freshPage();
    await page.goto('/login/');
    await hydrated(page);
    await page.getByLabel('Логин').fill('demo');
    await page.getByLabel('Пароль').fill('berries2026');
    const login = await holdAnswers(page, apiPath('/api/auth/token/'), 'POST');
    const submit = page.getByRole('button', { name: 'Войти' });
    await submit.click();
    await login.asked;
    await expect.poll(() => submit.getAttribute('data-loading')).toBe('true');
    login.release();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeTruthy();
  });

  test('a slow search says it is searching and keeps the last results dimmed', async () => {
    const page = await freshPage();
    await page.goto('/search?q=малина');
    await hydrated(page);
    await page.getByRole('main').getByRole('link', { name: 'Малина', exact: true }).waitFor();

    const search = await holdAnswers(page, apiPath('/api/catalog/'));
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.fill('клубника');
    await field.press('Enter');
    await search.asked;
    const status = page.getByRole('status').filter({ hasText: 'Ищем…' });
    await status.waitFor();
    expect(await field.inputValue()).toBe('клубника');
    // The raspberries stay in view, dimmed and inert (no tap, Tab or screen reader reaches
    // them), until the answer.
    expect(await page.locator('[inert] [data-testid="product-card"]').count()).toBeGreaterThan(0);
    search.release();
    await page
      .getByRole('status')
      .filter({ hasText: /^Найдено/ })
      .waitFor();
    expect(plain(await page.getByRole('status').first().textContent())).toMatch(/^Найдено/);
  });
});
