// Slow answers (issue 8): every /api call takes 2 s. Each main page must show its frame (header,
// footer) and a loading state (a skeleton or loader marked aria-busy) while the call is still
// on its way, never a blank screen, and its content once the answer comes. Actions (a basket
// change, the order, the login) show that they are under way and keep the page usable.
// The checks are on what is visible while the answer is provably still pending, and on every
// look until the content comes showing a loading state or the content, not on timings; the only
// bound is that the loading state shows within half the delay, or most of it would be blank.
import type { Locator, Page, Request } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { control, openPage, screenshot, setupBrowser } from './browser.ts';
import {
  acceptCookies,
  clearFaults,
  plain,
  serverBasket,
  setServerBasket,
  slowDown,
} from './failures-helpers.ts';

const browser = setupBrowser();

const DELAY_MS = 2000;
const LOADING_SHOWS_WITHIN = { timeout: DELAY_MS / 2 };
const RASPBERRY = { id: 7, name: 'Малина' };

beforeEach(async () => {
  await control('/__control/reset');
});
afterEach(clearFaults);

/** Calls to /api that have been sent and not yet answered. */
function trackPending(page: Page): Set<Request> {
  const pending = new Set<Request>();
  const isApi = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');
  page.on('request', (request) => {
    if (isApi(request)) pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  return pending;
}

/** A loading state in the page's main part: announced as busy, or a visible skeleton or loader. */
const loadingState = (page: Page) =>
  page
    .locator('main')
    .locator(
      '[aria-busy="true"]:visible, .mantine-Skeleton-root:visible, .mantine-Loader-root:visible',
    )
    .first();

/**
 * Looks at the page every 50 ms until `content` shows: each look must find the content or a
 * loading state. Returns the moments (ms from the start) that showed neither: a blank screen.
 */
async function blankMomentsUntil(page: Page, content: Locator): Promise<number[]> {
  const blank: number[] = [];
  const started = Date.now();
  while (!(await content.isVisible())) {
    if (!(await loadingState(page).isVisible()) && !(await content.isVisible())) {
      blank.push(Date.now() - started);
    }
    expect(Date.now() - started, 'the content never came').toBeLessThan(15_000);
    await page.waitForTimeout(50);
  }
  return blank;
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
  // Telegram's widget (on /news) is tried and blocked here.
  const page = await openPage(browser(), '/policy', { allowHosts: ['telegram.org'] });
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

describe('every /api answer takes 2 s', () => {
  for (const { path, content, basket } of PAGES) {
    test(`${path}: the frame and a loading state at once, then the content`, async () => {
      const page = await freshPage(basket ? { [RASPBERRY.id]: 1.5 } : undefined);
      const pending = trackPending(page);
      await slowDown('/api', DELAY_MS);

      await page.goto(path, { waitUntil: 'commit' });
      await loadingState(page).waitFor(LOADING_SHOWS_WITHIN);
      // Still waiting for the stub: what shows now is the loading state, not a late skeleton.
      expect(pending.size).toBeGreaterThan(0);
      await expectFrame(page);
      expect(await content(page).count()).toBe(0);
      await screenshot(page, `slow ${path} loading`);

      // From the first loading frame to the content, never a moment with neither.
      expect(await blankMomentsUntil(page, content(page).first())).toEqual([]);
      await expect.poll(() => loadingState(page).count(), { timeout: 5000 }).toBe(0);
    });
  }

  test('/: the header still works while the page loads', async () => {
    const page = await freshPage();
    await slowDown('/api', DELAY_MS);
    await page.goto('/', { waitUntil: 'commit' });
    await loadingState(page).waitFor(LOADING_SHOWS_WITHIN);
    await page.locator('header').getByRole('link', { name: 'Каталог' }).click();
    await page.waitForURL((url) => url.pathname === '/catalog');
    await page.getByRole('heading', { level: 1, name: 'Каталог' }).waitFor();
    await loadingState(page).waitFor(LOADING_SHOWS_WITHIN);
    await page.getByRole('main').getByRole('link', { name: 'Ягоды', exact: true }).waitFor();
  });
});

describe('slow actions show that they are under way', () => {
  test('a basket change shows at once and the control says it is saving', async () => {
    const page = await freshPage({ [RASPBERRY.id]: 1.5 });
    await page.goto(`/product/${RASPBERRY.id}`);
    const field = page.getByRole('textbox', { name: 'Количество, кг' });
    await expect.poll(() => field.inputValue()).toBe('1,5');

    await slowDown(`/api/catalog/basket/${RASPBERRY.id}`, DELAY_MS, 'PUT');
    await page.getByRole('button', { name: `Увеличить количество: ${RASPBERRY.name}` }).click();
    expect(await field.inputValue()).toBe('1,6');
    const control = page.getByTestId('basket-control');
    expect(await control.getAttribute('aria-busy')).toBe('true');
    expect(await serverBasket(page)).toEqual({ [RASPBERRY.id]: 1.5 });

    await expect.poll(() => control.getAttribute('aria-busy'), { timeout: 5000 }).toBe('false');
    expect(await serverBasket(page)).toEqual({ [RASPBERRY.id]: 1.6 });
  });

  test('a slow order: the button shows it is sending and nothing can be sent twice', async () => {
    const page = await freshPage({ [RASPBERRY.id]: 1.5 });
    await page.goto('/commit');
    const phone = page.getByRole('textbox', { name: 'Телефон' });
    await phone.click();
    await phone.pressSequentially('9123456789');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();

    await slowDown('/api/catalog/order_commit', DELAY_MS, 'POST');
    const submit = page.getByRole('button', { name: 'Подтвердить' });
    await submit.click();
    await expect.poll(() => submit.getAttribute('data-loading')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);
    // An impatient second click goes nowhere.
    await submit.click({ force: true });
    expect(await phone.isDisabled()).toBe(true);
    await screenshot(page, 'slow order sending');

    await page.waitForURL((url) => url.pathname === '/order_status');
    await page.getByTestId('order').first().waitFor();
    expect(await page.getByTestId('order').count()).toBe(1);
  });

  test('a slow login: the button shows it is working, then the shopper is in', async () => {
    const page = await freshPage();
    await page.goto('/login/');
    await page.getByLabel('Логин').fill('demo');
    await page.getByLabel('Пароль').fill('berries2026');
    await slowDown('/api/auth/token/', DELAY_MS, 'POST');
    const submit = page.getByRole('button', { name: 'Войти' });
    await submit.click();
    await expect.poll(() => submit.getAttribute('data-loading')).toBe('true');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeTruthy();
  });

  test('a slow search says it is searching and keeps the last results dimmed', async () => {
    const page = await freshPage();
    await page.goto('/search?q=малина');
    await page.getByRole('main').getByRole('link', { name: 'Малина', exact: true }).waitFor();

    await slowDown('/api/catalog', DELAY_MS);
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.fill('клубника');
    await field.press('Enter');
    const status = page.getByRole('status').filter({ hasText: 'Ищем…' });
    await status.waitFor(LOADING_SHOWS_WITHIN);
    expect(await field.inputValue()).toBe('клубника');
    // The raspberries stay in view, dimmed and inert (no tap, Tab or screen reader reaches
    // them), until the answer.
    expect(await page.locator('[inert] [data-testid="product-card"]').count()).toBeGreaterThan(0);
    await page
      .getByRole('status')
      .filter({ hasText: /^Найдено/ })
      .waitFor();
    expect(plain(await page.getByRole('status').first().textContent())).toMatch(/^Найдено/);
  });
});
