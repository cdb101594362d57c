// A whole purchase in a real browser against the production build and the stub: a product by
// weight (1.5 кг) and one by the piece into the basket, amounts changed and one line removed,
// a wrong phone refused with the focus on it, the order placed, then found in Заказы with the
// right sum while the basket is empty. A reload at every step must lose nothing. Once by
// mouse, once by keyboard alone, in both themes, on a phone and on a desktop.
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { baseUrl, control, openPage, screenshot, setupBrowser } from './browser.ts';

const browser = setupBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

// Seeded products (stub-server/fixtures/catalog.ts).
const RASPBERRY = { id: 7, name: 'Малина', price: 890 }; // кг, by 0.1, 15 in stock
const JAM = { id: 43, name: 'Варенье клубничное, 400 г', price: 390 }; // шт, 20 in stock

/** Money as the page prints it: Intl puts no-break spaces in it. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ').trim();

beforeEach(async () => {
  await control('/__control/reset');
});

async function acceptCookies(page: Page): Promise<void> {
  await page.context().addCookies([{ name: 'cookieAccepted', value: 'true', url: baseUrl() }]);
  await page.reload();
}

async function expectTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

const amountField = (scope: Page | Locator, unit: string) =>
  scope.getByRole('textbox', { name: `Количество, ${unit}` }).first();

const basketLine = (page: Page, name: string) => page.getByRole('article', { name });

/**
 * Waits until the product's control shows `amount` and is no longer saving it: a keyboard
 * shopper's next key only counts once the line's controls are usable again.
 */
async function saved(page: Page, amount: string): Promise<void> {
  const control = page.getByTestId('basket-control').first();
  await expect
    .poll(async () => [
      await amountField(control, 'шт').inputValue(),
      await control.getAttribute('aria-busy'),
    ])
    .toEqual([amount, 'false']);
}

async function lineSum(page: Page, name: string): Promise<string> {
  return plain(await basketLine(page, name).getByTestId('line-sum').textContent());
}

async function basketTotal(page: Page): Promise<string> {
  return plain(await page.getByTestId('basket-total').textContent());
}

/** The basket as the stub holds it for this browser: product id -> amount. */
async function serverBasket(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const answer = await fetch('/api/catalog/basket', { headers: { Accept: 'application/json' } });
    const lines = (await answer.json()) as Record<string, { amount: number }>;
    return Object.fromEntries(Object.entries(lines).map(([id, line]) => [id, line.amount]));
  });
}

const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('name') ?? null);

/**
 * What a keyboard user looks for: a control by its whole text, a part of its text, the start of
 * its aria-label, or a field by its name. Plain data, matched by focusedIs in the page: no code
 * is built from text there (the shop's CSP allows no eval).
 */
type Sought =
  { text: string } | { textIncludes: string } | { labelStartsWith: string } | { name: string };

function focusedIs(sought: Sought): boolean {
  const element = document.activeElement;
  if (!element) return false;
  const text = element.textContent ?? '';
  if ('text' in sought) return text.trim() === sought.text;
  if ('textIncludes' in sought) return text.includes(sought.textIncludes);
  if ('labelStartsWith' in sought) {
    return (element.getAttribute('aria-label') ?? '').startsWith(sought.labelStartsWith);
  }
  return element.getAttribute('name') === sought.name;
}

/** Presses Tab until the focused element is the one sought, as a keyboard user would look for it. */
async function tabTo(page: Page, sought: Sought, max = 80): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(focusedIs, sought)) return;
  }
  throw new Error(`Tab never reached ${JSON.stringify(sought)}`);
}

for (const { scheme, viewport, label } of [
  { scheme: 'light' as const, viewport: DESKTOP, label: 'light 1280' },
  { scheme: 'dark' as const, viewport: PHONE, label: 'dark 390' },
]) {
  describe(`a purchase by mouse (${label})`, () => {
    test('basket, checkout with a wrong phone first, and the order in Заказы; reloads lose nothing', async () => {
      const page = await openPage(browser(), `/product/${RASPBERRY.id}`, {
        theme: scheme,
        viewport,
      });
      await acceptCookies(page);
      await expectTheme(page, scheme);

      // 1.5 кг of raspberries: В корзину adds 0.1, then the amount is typed.
      await page.getByRole('button', { name: 'В корзину' }).first().click();
      const kg = amountField(page, 'кг');
      await expect.poll(() => kg.inputValue()).toBe('0,1');
      await kg.fill('1,5');
      await kg.press('Enter');
      await expect.poll(() => serverBasket(page)).toEqual({ '7': 1.5 });
      await reload(page);
      expect(await amountField(page, 'кг').inputValue()).toBe('1,5');

      // Jam by the piece: three clicks on plus all count. Each waits until the line has saved
      // the one before: its controls are disabled meanwhile (spec §4).
      await page.goto(`/product/${JAM.id}`);
      await page.getByRole('button', { name: 'В корзину' }).first().click();
      const plus = page.getByRole('button', { name: `Увеличить количество: ${JAM.name}` }).first();
      await plus.click();
      await plus.click();
      await plus.click();
      await expect.poll(() => amountField(page, 'шт').inputValue()).toBe('4');
      await expect.poll(() => serverBasket(page)).toEqual({ '7': 1.5, '43': 4 });
      await reload(page);
      expect(await amountField(page, 'шт').inputValue()).toBe('4');

      // The basket page: two lines, their sums and the total.
      await page.goto('/order');
      await basketLine(page, RASPBERRY.name).waitFor();
      expect(await page.getByRole('article').count()).toBe(2);
      await expect.poll(() => lineSum(page, RASPBERRY.name)).toBe('1 335 ₽');
      expect(await lineSum(page, JAM.name)).toBe('1 560 ₽');
      await expect.poll(() => basketTotal(page)).toBe('2 895 ₽');
      await screenshot(page, `purchase basket ${label}`);

      // Change both amounts, then take the raspberries back to 1.5 кг.
      const raspberryLine = basketLine(page, RASPBERRY.name);
      await raspberryLine.getByRole('button', { name: /Увеличить количество/ }).click();
      await basketLine(page, JAM.name)
        .getByRole('button', { name: /Уменьшить количество/ })
        .click();
      await expect.poll(() => lineSum(page, RASPBERRY.name)).toBe('1 424 ₽');
      await expect.poll(() => lineSum(page, JAM.name)).toBe('1 170 ₽');
      await expect.poll(() => basketTotal(page)).toBe('2 594 ₽');
      await reload(page);
      expect(await amountField(basketLine(page, RASPBERRY.name), 'кг').inputValue()).toBe('1,6');
      expect(await amountField(basketLine(page, JAM.name), 'шт').inputValue()).toBe('3');
      await basketLine(page, RASPBERRY.name)
        .getByRole('button', { name: /Уменьшить количество/ })
        .click();
      await expect.poll(() => lineSum(page, RASPBERRY.name)).toBe('1 335 ₽');

      // Remove the jam.
      await page.getByRole('button', { name: `Удалить из корзины: ${JAM.name}` }).click();
      await expect.poll(() => page.getByRole('article').count()).toBe(1);
      await expect.poll(() => basketTotal(page)).toBe('1 335 ₽');
      await expect.poll(() => serverBasket(page)).toEqual({ '7': 1.5 });
      await reload(page);
      // The lines and the total load in the browser after the page (spec §2): wait for them.
      await basketLine(page, RASPBERRY.name).waitFor();
      expect(await page.getByRole('article').count()).toBe(1);
      await expect.poll(() => basketTotal(page)).toBe('1 335 ₽');

      // Checkout: the total, then a wrong phone.
      await page.getByRole('link', { name: 'Продолжить' }).click();
      await page.waitForURL((url) => url.pathname === '/commit');
      await reload(page);
      await expect
        .poll(async () => plain(await page.getByTestId('commit-total').textContent()))
        .toBe('1 335 ₽');
      expect(await page.title()).toMatch(/Подтверждение заказа$/);
      const submit = page.getByRole('button', { name: 'Подтвердить' });
      expect(await submit.isDisabled()).toBe(true);
      const phone = page.getByRole('textbox', { name: /Телефон/ });
      await phone.click();
      await page.keyboard.type('8123');
      await page.getByText('Доставка курьером').click();
      await page.getByText('Доставка по городу — 300 ₽', { exact: false }).waitFor();
      await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
      await submit.click();
      await page.getByText('Некорректный номер').waitFor();
      await expect.poll(() => focusedName(page)).toBe('phone');
      await screenshot(page, `purchase wrong phone ${label}`);

      // A number pasted in another format lands right, and the order goes.
      await phone.fill('+7 912 345 67 89');
      expect(await phone.inputValue()).toBe('+7(912)-345-67-89');
      expect(await page.getByText('Некорректный номер').count()).toBe(0);
      await submit.click();
      await page.waitForURL((url) => url.pathname === '/order_status');

      // The order leads Заказы with the right sum, status Создан and its line.
      const order = page.getByTestId('order').first();
      await order.waitFor();
      expect(plain(await order.getByTestId('order-sum').textContent())).toBe('1 335 ₽');
      expect(await order.getByTestId('order-status').textContent()).toBe('Создан');
      await order.getByRole('button').first().click();
      const row = order.getByRole('row', { name: /Малина/ });
      await row.waitFor();
      expect(plain(await row.textContent())).toBe('Малина1,5 кг1 335 ₽');
      await screenshot(page, `purchase orders ${label}`);
      await reload(page);
      expect(plain(await page.getByTestId('order-sum').first().textContent())).toBe('1 335 ₽');

      // The basket is empty, here and on the server.
      expect(await serverBasket(page)).toEqual({});
      await page.goto('/order');
      await page.getByText('В корзине пока пусто').waitFor();
      await page.goto('/commit');
      await page.getByText('В вашей корзине пусто').waitFor();
    });
  });
}

for (const { scheme, viewport, label } of [
  { scheme: 'dark' as const, viewport: DESKTOP, label: 'dark 1280' },
  { scheme: 'light' as const, viewport: PHONE, label: 'light 390' },
]) {
  describe(`a purchase by keyboard alone (${label})`, () => {
    test('Tab, Enter, Space and typing are enough from the product to Заказы', async () => {
      const page = await openPage(browser(), `/product/${JAM.id}`, {
        theme: scheme,
        viewport,
      });
      await acceptCookies(page);
      await expectTheme(page, scheme);
      await page.getByRole('heading', { level: 1 }).waitFor();

      await tabTo(page, { text: 'В корзину' });
      await page.keyboard.press('Enter');
      await saved(page, '1');
      await tabTo(page, { labelStartsWith: 'Увеличить' });
      await page.keyboard.press('Enter');
      await saved(page, '2');
      await page.keyboard.press('Space');
      await saved(page, '3');
      // Typing into the amount: Shift+Tab back to the field, a new amount, Enter.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      await expect.poll(() => serverBasket(page)).toEqual({ '43': 2 });

      await tabTo(page, { labelStartsWith: 'Корзина на сумму' });
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/order');
      await expect.poll(() => basketTotal(page)).toBe('780 ₽');
      await tabTo(page, { text: 'Продолжить' });
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/commit');
      // The form renders after its code and the basket load; tab once it is there.
      await page.locator('input[name="phone"]').waitFor();

      await tabTo(page, { name: 'phone' });
      await page.keyboard.type('9123456789');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Позвоните заранее');
      await page.keyboard.press('Tab'); // the first delivery choice
      await page.keyboard.press('ArrowDown'); // pickup
      await page.getByText('Окружное шоссе, 29', { exact: false }).waitFor();
      await page.keyboard.press('Tab'); // the policy consent
      await page.keyboard.press('Space');
      await tabTo(page, { text: 'Подтвердить' });
      await screenshot(page, `purchase keyboard commit ${label}`);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/order_status');

      const order = page.getByTestId('order').first();
      await order.waitFor();
      expect(plain(await order.getByTestId('order-sum').textContent())).toBe('780 ₽');
      expect(await serverBasket(page)).toEqual({});
      // The accordion opens from the keyboard too.
      await tabTo(page, { textIncludes: 'Заказ №' });
      await page.keyboard.press('Enter');
      await order.getByRole('row', { name: /Варенье/ }).waitFor();
    });
  });
}
