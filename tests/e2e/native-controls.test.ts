// Issue 26: the header menu, the «Товар закончился» dialog, the search page's links, the home
// carousel's arrows and the login form's eye work as the browser's own HTML (a popover, a
// <dialog>, links) with JavaScript off, which is also a slow phone's first seconds, or stay hidden
// until the app runs; and still work, with the spec's hover delays, once the app runs.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { assertClean, control, hydrated, openPage, screenshot, setupBrowser } from './browser.ts';
import { acceptCookies, setServerBasket } from './failures-helpers.ts';
import { openWithAppCodeHeld } from './held-app-code.ts';
import { holdAnswers } from './held-answers.ts';

const browser = setupBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Sold out in the stub's catalogue (rest 0): its card offers `Недоступно`. */
const SOLD_OUT = '/product/5';

const menuButton = (page: Page) => page.locator('header').getByRole('button', { name: 'Меню' });
const menu = (page: Page) => page.getByRole('menu', { name: 'Меню' });
const soldOutDialog = (page: Page) => page.getByRole('dialog', { name: 'Товар закончился' });
const focusedName = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.getAttribute('aria-label') ??
      (document.activeElement as HTMLElement | null)?.innerText.trim(),
  );

/** Waits until nothing fades any more (the menu fades in), for a screenshot of the end state. */
const stillness = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(() =>
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      ),
    )
    .toBe(true);

/** A page without JavaScript, the cookie notice accepted so that it covers nothing. */
async function withoutApp(
  path: string,
  options: { theme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
) {
  const page = await openPage(browser(), '/policy', {
    javaScriptEnabled: false,
    viewport: PHONE,
    ...options,
  });
  await acceptCookies(page);
  await page.goto(path);
  return page;
}

beforeEach(async () => {
  await control('reset');
});

describe('with JavaScript off', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`Меню opens with Корзина and Заказы, and they lead to their pages (${theme}, 390 px)`, async () => {
      const page = await withoutApp('/catalog', { theme });
      await menuButton(page).click();
      await menu(page).waitFor();
      // An empty basket: Заказы only (spec §2).
      expect(await menu(page).getByRole('menuitem').allInnerTexts()).toEqual(['Заказы']);
      await page.keyboard.press('Escape');
      await menu(page).waitFor({ state: 'hidden' });

      await setServerBasket(page, { 7: 1, 43: 2 });
      await page.reload();
      await menuButton(page).click();
      await menu(page).waitFor();
      const cart = menu(page).getByRole('menuitem', { name: 'Корзина, товаров: 2' });
      expect(await cart.isVisible()).toBe(true);
      await stillness(page);
      await screenshot(page, `menu open without javascript 390 ${theme}`, { fullPage: false });

      await cart.click();
      await page.waitForURL((url) => url.pathname === '/order');
      await menuButton(page).click();
      await menu(page).getByRole('menuitem', { name: 'Заказы' }).click();
      await page.waitForURL((url) => url.pathname === '/order_status');
      expect(await page.locator('html[data-hydrated]').count()).toBe(0);
      assertClean(page);
    });

    test(`Недоступно opens «Товар закончился» with the spec's texts, and Ok closes it (${theme}, 390 px)`, async () => {
      const page = await withoutApp(SOLD_OUT, { theme });
      await page.getByRole('button', { name: 'Недоступно' }).click();
      const dialog = soldOutDialog(page);
      await dialog.waitFor();
      const text = await dialog.innerText();
      expect(text).toMatch(/оставить заявку/);
      expect(text).toMatch(/сообщим вам, когда товар снова появится в продаже/);
      expect(text).toMatch(/цена товара может измениться/);
      // Modal, as Mantine's was: the page behind is out of reach.
      expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
      await stillness(page);
      await screenshot(page, `sold-out dialog without javascript 390 ${theme}`, {
        fullPage: false,
      });
      await dialog.getByRole('button', { name: 'Ok' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assertClean(page);
    });
  }

  test('the sold-out dialog takes the focus in, lets Escape close it and gives it back', async () => {
    const page = await withoutApp(SOLD_OUT);
    const unavailable = page.getByRole('button', { name: 'Недоступно' });
    await unavailable.focus();
    await page.keyboard.press('Enter');
    await soldOutDialog(page).waitFor();
    expect(await focusedName(page)).toBe('Закрыть');
    await page.keyboard.press('Escape');
    await soldOutDialog(page).waitFor({ state: 'hidden' });
    expect(await focusedName(page)).toBe('Недоступно');
    // And again, closed by its Ok from the keyboard.
    await page.keyboard.press('Enter');
    await soldOutDialog(page).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Ok');
    await page.keyboard.press('Enter');
    await soldOutDialog(page).waitFor({ state: 'hidden' });
    expect(await focusedName(page)).toBe('Недоступно');
  });

  test('the home carousel shows no arrows: they would do nothing', async () => {
    const page = await withoutApp('/', { viewport: DESKTOP });
    const carousel = page.getByRole('region', { name: 'Новости магазина' });
    await carousel.getByTestId('home-slide').first().waitFor();
    await carousel.hover();
    expect(await carousel.getByRole('button').count()).toBe(0);
  });

  test('search: the magnifier carries the page, Очистить поиск empties the search, Назад goes back to it', async () => {
    const page = await withoutApp('/product/7');
    await page.locator('header').getByRole('link', { name: 'Поиск' }).click();
    await page.waitForURL((url) => url.pathname === '/search');
    expect(new URL(page.url()).searchParams.get('from')).toBe('/product/7');

    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.fill('мал');
    await field.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'мал');
    expect(new URL(page.url()).searchParams.get('from')).toBe('/product/7');
    await page.getByRole('link', { name: 'Малина', exact: true }).first().waitFor();

    await page.getByRole('link', { name: 'Очистить поиск' }).click();
    await page.waitForURL((url) => !url.searchParams.has('q'));
    expect(await field.inputValue()).toBe('');
    expect(new URL(page.url()).searchParams.get('from')).toBe('/product/7');

    await page.getByRole('link', { name: 'Назад' }).click();
    await page.waitForURL((url) => url.pathname === '/product/7');
    assertClean(page);
  });

  test('search opened without a page to go back to: Назад leads home', async () => {
    const page = await withoutApp('/search?q=мал&from=//evil.example/');
    await page.getByRole('link', { name: 'Назад' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.host !== 'evil.example');
  });

  test('the login form has no Показать символы: it would do nothing', async () => {
    const page = await withoutApp('/login/');
    await page.getByRole('textbox', { name: 'Логин' }).waitFor();
    expect(await page.getByRole('button', { name: 'Показать символы' }).count()).toBe(0);
  });
});

describe('before the app has arrived', () => {
  test('a click on Меню opens it, and on Недоступно its dialog', async () => {
    const page = await openPage(browser(), '/policy', { viewport: PHONE });
    await acceptCookies(page);
    const app = await openWithAppCodeHeld(page, SOLD_OUT);
    await menuButton(page).click();
    await menu(page).getByRole('menuitem', { name: 'Заказы' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Недоступно' }).click();
    await soldOutDialog(page).waitFor();
    app.release();
    await hydrated(page);
    // The app took the page over with the dialog open; its Ok still closes it.
    await soldOutDialog(page).getByRole('button', { name: 'Ok' }).click();
    await soldOutDialog(page).waitFor({ state: 'hidden' });
  });
});

describe('with the app', () => {
  /** The page with its clock stopped: the menu's delays run only as the test moves time. */
  /** The app's menu code has come (it loads when the pointer or the focus first reaches it). */
  const enhanced = (page: Page) =>
    page.locator('#main-menu[data-enhanced]').waitFor({ state: 'attached' });

  async function withTimeStopped(path: string): Promise<Page> {
    const page = await openPage(browser(), path, { viewport: DESKTOP });
    await page.clock.install();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.reload();
    return page;
  }
  const menuShown = (page: Page) => menu(page).isVisible();

  test('the menu opens 300 ms after the pointer reaches it and closes 250 ms after it leaves', async () => {
    const page = await withTimeStopped('/');
    await menuButton(page).hover();
    await enhanced(page);
    await page.clock.runFor(290);
    expect(await menuShown(page)).toBe(false);
    await page.clock.runFor(10);
    await menu(page).waitFor();
    // From the button into the menu: it stays.
    await menu(page).getByRole('menuitem', { name: 'Заказы' }).hover();
    await page.clock.runFor(1000);
    expect(await menuShown(page)).toBe(true);

    await page.mouse.move(5, 600);
    await page.clock.runFor(240);
    expect(await menuShown(page)).toBe(true);
    await page.clock.runFor(10);
    await menu(page).waitFor({ state: 'hidden' });
  });

  test('the menu does not open for a pointer passing over it in less than 300 ms', async () => {
    const page = await withTimeStopped('/');
    await menuButton(page).hover();
    await page.clock.runFor(200);
    await page.mouse.move(5, 600);
    await page.clock.runFor(1000);
    expect(await menuShown(page)).toBe(false);
  });

  test('a click keeps the menu the pointer opened open after the pointer leaves; the next click closes it', async () => {
    const page = await withTimeStopped('/');
    await menuButton(page).hover();
    await enhanced(page);
    await page.clock.runFor(300);
    await menu(page).waitFor();
    await menuButton(page).click();
    await page.mouse.move(5, 600);
    await page.clock.runFor(1000);
    expect(await menuShown(page)).toBe(true);
    await menuButton(page).click();
    await menu(page).waitFor({ state: 'hidden' });
  });

  test('a click opens the menu at once; a menu item closes it and opens its page without a reload', async () => {
    const page = await openPage(browser(), '/catalog', { viewport: PHONE });
    await acceptCookies(page);
    // The menu's enhancement (hover delays, arrow keys), held: on a slow phone the item is tapped
    // before it arrives, and the menu must close all the same.
    const enhancement = await holdAnswers(page, (url) =>
      url.pathname.startsWith('/assets/menu-popover-'),
    );
    await page.evaluate(() => ((window as { shopMark?: boolean }).shopMark = true));
    await menuButton(page).click();
    await enhancement.asked;
    await menu(page).getByRole('menuitem', { name: 'Заказы' }).click();
    await page.waitForURL((url) => url.pathname === '/order_status');
    await menu(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => (window as { shopMark?: boolean }).shopMark)).toBe(true);
    expect(await page.locator('#main-menu').getAttribute('data-enhanced')).toBe(null);
    enhancement.release();
  });

  test('Назад on a search opened from another page, with no history, leads to that page', async () => {
    const page = await openPage(browser(), '/search?q=мал&from=%2Fcatalog');
    await page.getByRole('link', { name: 'Малина', exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Назад' }).click();
    await page.waitForURL((url) => url.pathname === '/catalog');
  });

  test('the login form shows Показать символы, and it shows the password', async () => {
    const page = await openPage(browser(), '/login/');
    const password = page.locator('input[name="password"]');
    await password.fill('berries2026');
    await page.getByRole('button', { name: 'Показать символы' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Скрыть символы' }).click();
    expect(await password.getAttribute('type')).toBe('password');
  });
});
