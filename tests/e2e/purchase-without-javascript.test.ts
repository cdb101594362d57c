// Issue 19: the basket controls, checkout and login are forms the shop's server handles. With
// JavaScript off a shopper buys from start to finish; with the app's code still on its way, a
// tap on a basket control takes effect.
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  assertClean,
  markDocument,
  baseUrl,
  control,
  hydrated,
  openPage,
  screenshot,
  setupBrowser,
} from './browser.ts';
import { acceptCookies, serverBasket, setServerBasket } from './failures-helpers.ts';
import { openWithAppCodeHeld } from './held-app-code.ts';

const browser = setupBrowser();

const PHONE = 'input[name="phone"]';

/** The amount field of a product's basket control, as the server drew it. */
const amountField = (page: Page, unit: string) =>
  page
    .locator('main')
    .getByRole('textbox', { name: `Количество, ${unit}` })
    .first();

/** Presses a basket form's button and waits for the server's answer to come back as the page. */
async function press(page: Page, name: string | RegExp): Promise<void> {
  const posted = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/basket');
  await page.locator('main').getByRole('button', { name }).first().click();
  expect((await posted).status()).toBe(303);
  await page.waitForLoadState('load');
}

describe('with JavaScript off', () => {
  test('a shopper buys: add, +, −, an amount typed, delete, checkout with a wrong and then a right phone, the order', async () => {
    await control('reset');
    const page = await openPage(browser(), '/product/4', {
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const notice = page.getByRole('region', { name: 'Уведомление о cookie' });
    await notice.getByRole('button', { name: 'Продолжить' }).click();
    await notice.waitFor({ state: 'detached' });

    // Pieces: one step is 1.
    await press(page, 'В корзину');
    expect(new URL(page.url()).pathname).toBe('/product/4');
    expect(await amountField(page, 'шт').inputValue()).toBe('1');
    await press(page, /^Увеличить количество/);
    await press(page, /^Увеличить количество/);
    expect(await amountField(page, 'шт').inputValue()).toBe('3');
    await press(page, /^Уменьшить количество/);
    expect(await amountField(page, 'шт').inputValue()).toBe('2');
    // Enter in the amount field posts the amount (the form's default button).
    const posted = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/basket');
    await amountField(page, 'шт').fill('5');
    await amountField(page, 'шт').press('Enter');
    expect((await posted).status()).toBe(303);
    await page.waitForLoadState('load');
    expect(await amountField(page, 'шт').inputValue()).toBe('5');

    // A second product, added and taken out again (one step: the delete button).
    await page.goto('/product/7');
    await press(page, 'В корзину');
    expect(await amountField(page, 'кг').inputValue()).toBe('0,1');
    await press(page, /^Убрать из корзины/);
    await page.locator('main').getByRole('button', { name: 'В корзину' }).waitFor();

    // The price button is the visitor's total, from the server: 5 × 420 ₽.
    const priceButton = page.getByRole('link', { name: /^Корзина на сумму/ });
    expect(await priceButton.textContent()).toMatch(/2\s100\s₽/);
    await priceButton.click();
    await page.waitForURL('**/order');
    expect(await page.getByTestId('basket-line').count()).toBe(1);
    await screenshot(page, 'basket without javascript 390');
    await page.getByRole('link', { name: 'Продолжить' }).click();
    await page.waitForURL('**/commit');

    // A wrong phone: the form comes back as it was sent, the phone focused.
    await page.locator(PHONE).fill('8912345');
    await page.getByLabel('Комментарий к заказу').fill('Позвоните за час');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.getByText('Некорректный номер').waitFor();
    expect(await page.locator(`${PHONE}:focus`).count()).toBe(1);
    expect(await page.getByLabel('Комментарий к заказу').inputValue()).toBe('Позвоните за час');
    expect(await page.getByRole('radio', { name: 'Самовывоз' }).isChecked()).toBe(true);
    expect(
      await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).isChecked(),
    ).toBe(true);
    await screenshot(page, 'checkout refused without javascript 390');

    // The phone as people write it: 8 and eleven digits.
    await page.locator(PHONE).fill('89123456789');
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.waitForURL('**/order_status');
    const order = page.getByTestId('order').first();
    expect(await order.getByTestId('order-status').textContent()).toBe('Создан');
    expect(await order.getByTestId('order-sum').textContent()).toMatch(/2\s100\s₽/);
    expect(await page.getByTestId('order').count()).toBe(1);
    await screenshot(page, 'order status without javascript 390');

    // The basket is empty now, and the price button gone.
    await page.goto('/order');
    await page.getByText('В корзине пока пусто').waitFor();
    expect(await page.getByRole('link', { name: /^Корзина на сумму/ }).count()).toBe(0);
    assertClean(page);
  });

  test('the login form signs in and goes back to next_page; a wrong password keeps the login', async () => {
    const page = await openPage(browser(), '/login/?next_page=/order_status', {
      javaScriptEnabled: false,
    });
    await page.getByLabel('Логин').fill('demo');
    await page.getByLabel('Пароль').fill('wrong');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByText('Неверный логин или пароль').waitFor();
    expect(await page.getByLabel('Логин').inputValue()).toBe('demo');
    expect(await page.locator('input[name="password"]:focus').count()).toBe(1);

    await page.getByLabel('Пароль').fill('berries2026');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL('**/order_status');
    // The demo user's past orders, rendered by the server with the visitor's token.
    await page.getByTestId('order').first().waitFor();
    assertClean(page);
  });
});

describe('a basket control before the app has arrived', () => {
  test('a tap on В корзину at the first paint takes effect, and the app takes the page over', async () => {
    const page = await openPage(browser(), '/policy');
    const app = await openWithAppCodeHeld(page, '/product/4');
    // The app's code stays held: the tap reaches the server's HTML, and its form. The page's
    // load never ends while the code is held, so the server's next page is what is awaited.
    const posted = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/basket');
    await page.locator('main').getByRole('button', { name: 'В корзину' }).first().click();
    expect((await posted).status()).toBe(303);
    await amountField(page, 'шт').waitFor();
    expect(await amountField(page, 'шт').inputValue()).toBe('1');
    app.release();
    await hydrated(page);
    // The app's basket is the server's: plus now works without a reload.
    const sameDocument = await markDocument(page);
    await page
      .locator('main')
      .getByRole('button', { name: /^Увеличить количество/ })
      .first()
      .click();
    await expect.poll(() => amountField(page, 'шт').inputValue()).toBe('2');
    expect(await sameDocument()).toBe(true);
    await expect.poll(() => serverBasket(page)).toEqual({ 4: 2 });
  });
});

describe('typed before the app has arrived', () => {
  test('checkout: the phone, the comment and both boxes are kept and become the app’s state', async () => {
    const page = await openPage(browser(), '/policy');
    await acceptCookies(page);
    await setServerBasket(page, { 4: 2 });
    const app = await openWithAppCodeHeld(page, '/commit');
    await page.locator(PHONE).pressSequentially('9123456789');
    await page.getByLabel('Комментарий к заказу').pressSequentially('Позвоните за час');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
    app.release();
    await hydrated(page);
    // The app's state: the mask over the number, the counter, the note of the choice, and
    // Подтвердить enabled by the tick (it would wait for one the app did not know of).
    await expect.poll(() => page.locator(PHONE).inputValue()).toBe('+7(912)-345-67-89');
    expect(await page.getByLabel('Комментарий к заказу').inputValue()).toBe('Позвоните за час');
    await page.getByText('16 / 150').waitFor();
    await page.getByTestId('delivery-note').waitFor();
    expect(await page.getByRole('button', { name: 'Подтвердить' }).isEnabled()).toBe(true);
    const sameDocument = await markDocument(page);
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.waitForURL('**/order_status');
    expect(await sameDocument()).toBe(true);
  });

  test('an amount field: the amount typed is what Enter applies once the app runs', async () => {
    const page = await openPage(browser(), '/policy');
    await acceptCookies(page);
    await setServerBasket(page, { 4: 2 });
    const app = await openWithAppCodeHeld(page, '/product/4');
    const field = amountField(page, 'шт');
    await field.click();
    await field.press('End');
    await field.press('Backspace');
    await field.pressSequentially('5');
    app.release();
    await hydrated(page);
    expect(await field.inputValue()).toBe('5');
    const sameDocument = await markDocument(page);
    await field.press('Enter');
    await expect.poll(() => serverBasket(page)).toEqual({ 4: 5 });
    expect(await sameDocument()).toBe(true);
  });
});

describe("the basket's form on the server", () => {
  /** A newcomer's cookies, as the first page gives them. */
  /** A visitor with a session and nothing else (the backend's basket call hands one out). */
  async function newcomer(): Promise<string> {
    const first = await fetch(`${baseUrl()}/api/catalog/basket`);
    return first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .join('; ');
  }
  /** A same-site form post, as the browser sends it, answered without following the 303. */
  const postForm = (path: string, cookie: string, fields: Record<string, string>, headers = {}) =>
    fetch(`${baseUrl()}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        cookie,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  const post = (cookie: string, fields: Record<string, string>, headers = {}) =>
    postForm('/basket', cookie, fields, headers);
  const basketOf = async (cookie: string) =>
    (await (
      await fetch(`${baseUrl()}/api/catalog/basket`, { headers: { cookie } })
    ).json()) as Record<string, { amount: number }>;

  test('the checkout form sent twice at once (a double click) places one order', async () => {
    const cookie = await newcomer();
    await post(cookie, { product: '4', change: 'add', back: '/' });
    // The checkout page's form, with its attempt's key, as the browser posts it.
    const page = await (await fetch(`${baseUrl()}/commit`, { headers: { cookie } })).text();
    const key = /name="idempotency_key" value="([^"]+)"/.exec(page)?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const order = {
      phone: '9123456789',
      delivery: '2',
      policy_accept: 'on',
      idempotency_key: key ?? '',
    };
    const send = () => postForm('/commit', cookie, order);
    const answers = await Promise.all([send(), send()]);
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/order_status');
    }
    const history = (await (
      await fetch(`${baseUrl()}/api/catalog/order_history`, { headers: { cookie } })
    ).json()) as unknown[];
    expect(history).toHaveLength(1);
  });

  test('a post from another site changes nothing', async () => {
    const cookie = await newcomer();
    const answer = await post(
      cookie,
      { product: '4', change: 'add', back: '/' },
      {
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(answer.status).toBe(403);
    expect(await basketOf(cookie)).toEqual({});
  });

  test('an amount above the stock is the maximum; a refused change comes back as a notice', async () => {
    const cookie = await newcomer();
    const set = await post(cookie, {
      product: '4',
      change: 'set',
      amount: '50',
      back: '/product/4',
    });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/product/4');
    // Spec §5: at most 10.
    expect((await basketOf(cookie))['4']?.amount).toBe(10);

    // Product 5 is sold out: the server refuses it, and the page says so, once.
    const refused = await post(cookie, { product: '5', change: 'add', back: '//evil.example' });
    expect(refused.headers.get('location')).toBe('/');
    const notice = refused.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('notice='));
    expect(notice).toBeDefined();
    const page = await fetch(`${baseUrl()}/`, { headers: { cookie: `${cookie}; ${notice}` } });
    const html = await page.text();
    expect(html).toMatch(/role="alert"[^>]*>Не удалось изменить количество «Клубника «Азия»»/);
    expect(page.headers.getSetCookie().some((line) => /^notice=;/.test(line))).toBe(true);
  });
});
