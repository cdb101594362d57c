// The basket around an order in a real browser: an order is not sent when a basket change on
// its way fails (the shopper would get something other than what they saw), and a placed order
// leaves the basket at once, even when the reload after it fails (no price button inviting a
// second order of the same goods).
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { control, openPage, screenshot } from './browser.ts';
import {
  acceptCookies,
  browserOnCleanStub,
  clearFaults,
  plain,
  SERVER_ERROR,
  serverBasket,
  setServerBasket,
} from './failures-helpers.ts';
import { apiPath, holdAnswers } from './held-answers.ts';

const browser = browserOnCleanStub();

async function openBasket(viewport: { width: number; height: number }): Promise<Page> {
  const page = await openPage(browser(), '/policy', {
    viewport,
    allowConsoleErrors: [SERVER_ERROR.console],
  });
  await acceptCookies(page);
  await setServerBasket(page, { 7: 1.5, 43: 1 });
  await page.goto('/order');
  await page.getByRole('article', { name: 'Малина' }).waitFor();
  return page;
}

async function fillCommitForm(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: /Телефон/ }).fill('9123456789');
  await page.getByText('Самовывоз').click();
  await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
}

async function orderCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const answer = await fetch('/api/catalog/order_history');
    return ((await answer.json()) as unknown[]).length;
  });
}

const priceButton = (page: Page) => page.getByRole('link', { name: /^Корзина на сумму/ });

describe('the basket around an order', () => {
  test('a change on its way that fails stops the order, with a message and a way to the basket', async () => {
    const page = await openBasket({ width: 390, height: 844 });
    // The next plus on the jam stays on its way until the order is being sent, then fails.
    const put = await holdAnswers(page, apiPath('/api/catalog/basket/43'), 'PUT');
    await page.getByRole('button', { name: /^Увеличить количество: Варенье/ }).click();
    await put.asked;
    await page.getByRole('link', { name: 'Продолжить' }).click();
    await page.waitForURL((url) => url.pathname === '/commit');
    await fillCommitForm(page);
    const submit = page.getByRole('button', { name: 'Подтвердить' });
    await submit.click();
    // The order waits for the change on its way.
    await expect.poll(() => submit.getAttribute('data-loading')).toBe('true');
    put.fail(500);

    const alert = page.getByRole('alert').filter({ hasText: 'Корзина изменилась' });
    await alert.waitFor();
    expect(plain(await alert.textContent())).toBe(
      'Корзина изменилась: одно из изменений не сохранилось. Проверьте корзину и подтвердите заказ ещё раз. Открыть корзину',
    );
    await screenshot(page, 'checkout basket change failed 390');
    expect(await orderCount(page)).toBe(0);
    expect(await serverBasket(page)).toEqual({ 7: 1.5, 43: 1 });
    expect(new URL(page.url()).pathname).toBe('/commit');

    await alert.getByRole('link', { name: 'Открыть корзину' }).click();
    await page.waitForURL((url) => url.pathname === '/order');
    const jam = page.getByRole('textbox', { name: 'Количество, шт' });
    await expect.poll(() => jam.inputValue()).toBe('1');
  });

  test('a placed order leaves the basket even when the reload after it fails', async () => {
    const page = await openBasket({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Продолжить' }).click();
    await page.waitForURL((url) => url.pathname === '/commit');
    await fillCommitForm(page);
    await control('faults', {
      path: '/api/catalog/basket',
      method: 'GET',
      ...SERVER_ERROR.spec,
    });
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.waitForURL((url) => url.pathname === '/order_status');
    await page.getByTestId('order').first().waitFor();
    expect(await orderCount(page)).toBe(1);

    // The reload failed (its notice says so), yet nothing ordered is offered again.
    await page.getByText('Не удалось загрузить корзину', { exact: false }).first().waitFor();
    expect(await priceButton(page).count()).toBe(0);
    await screenshot(page, 'checkout order placed reload failed 1280');
    // The menu offers Заказы but no Корзина: the basket it knows is empty.
    await page.getByRole('button', { name: 'Меню' }).click();
    await page.getByRole('menuitem', { name: /Заказы/ }).waitFor();
    expect(await page.getByRole('menuitem', { name: /Корзина/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await clearFaults();
    expect(await serverBasket(page)).toEqual({});
  });
});
