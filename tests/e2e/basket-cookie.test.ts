// Issue 30: the basket cookie follows every change the app makes to the basket. nginx passes its
// cache by for whoever carries basket=1: set in 1 of 10 in-app adds, it left the shopper's next
// page the shared copy without their basket. Read after each change, as the next page would.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { openPage, setupBrowser } from './browser.ts';

const browser = setupBrowser();

/** A product sold by the piece, in stock (stub-server/fixtures/catalog.ts). */
const PRODUCT = '/product/17';

async function basketCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find(({ name }) => name === 'basket')?.value;
}

/** Waits until the line's amount field shows `amount` and its controls are usable again. */
async function amountIs(page: Page, amount: string): Promise<void> {
  await expect
    .poll(() => page.locator('main input[name="amount"]').first().inputValue())
    .toBe(amount);
}

describe('the basket cookie in the app', () => {
  test('is set by В корзину, stays through a change of the amount, and goes with the line', async () => {
    const page = await openPage(browser(), PRODUCT);
    expect(await basketCookie(page)).toBeUndefined();

    await page.locator('main').getByRole('button', { name: 'В корзину' }).first().click();
    await amountIs(page, '1');
    await expect.poll(() => basketCookie(page)).toBe('1');

    await page
      .getByRole('button', { name: /^Увеличить количество:/ })
      .first()
      .click();
    await amountIs(page, '2');
    expect(await basketCookie(page)).toBe('1');

    await page
      .getByRole('button', { name: /^Уменьшить количество:/ })
      .first()
      .click();
    await amountIs(page, '1');
    await page
      .getByRole('button', { name: /^Убрать из корзины:/ })
      .first()
      .click();
    await page.locator('main').getByRole('button', { name: 'В корзину' }).first().waitFor();
    await expect.poll(() => basketCookie(page)).toBeUndefined();

    // Added again after it went: the cookie comes back.
    await page.locator('main').getByRole('button', { name: 'В корзину' }).first().click();
    await amountIs(page, '1');
    await expect.poll(() => basketCookie(page)).toBe('1');
  });
});
