// Bad input in the two fields a shopper types numbers into (issue 8), through the real widgets:
// the basket amount (odd numbers, letters, foreign digits, a minus) and the phone, pasted in
// every common Russian format through the +7 mask.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseUrl, openPage } from './browser.ts';
import {
  acceptCookies,
  browserOnCleanStub,
  serverBasket,
  setServerBasket,
} from './failures-helpers.ts';

const browser = browserOnCleanStub();

/** A page whose context may use the clipboard, so a test can paste as a shopper does. */
async function openWithBasket(lines: Record<number, number>, path: string): Promise<Page> {
  const page = await openPage(browser(), '/policy');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: baseUrl(),
  });
  await acceptCookies(page);
  await setServerBasket(page, lines);
  await page.goto(path);
  return page;
}

/** Puts `text` on the clipboard and pastes it with Ctrl+V into the focused field. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press('Control+V');
}

describe('the basket amount field', () => {
  test('by weight: each odd entry ends as a clear amount or leaves it as it was', async () => {
    const page = await openWithBasket({ 7: 1 }, '/product/7');
    const field = page.getByRole('textbox', { name: 'Количество, кг' });
    await expect.poll(() => field.inputValue()).toBe('1');

    const steps: [entry: string, shown: string, server: Record<string, number>][] = [
      ['  2 ', '2', { 7: 2 }],
      ['1e9', '1', { 7: 1 }], // the exponent ends the number: 1, not 19 or a billion
      ['0,,5', '0,5', { 7: 0.5 }],
      ['٣', '0,5', { 7: 0.5 }], // an Arabic-Indic digit is not taken: nothing changes
      ['abc', '0,5', { 7: 0.5 }],
    ];
    for (const [index, [entry, shown, server]] of steps.entries()) {
      await field.click();
      await page.keyboard.press('Control+A');
      // Typed and pasted text go through the same filter; half of them are pasted.
      if (index % 2 === 0) await paste(page, entry);
      else await field.fill(entry);
      await field.press('Enter');
      await expect.poll(() => serverBasket(page), { message: entry }).toEqual(server);
      await expect.poll(() => field.inputValue(), { message: entry }).toBe(shown);
    }

    // Below 0 is 0: the line leaves the basket and `В корзину` is back.
    await field.fill('-2');
    await field.press('Enter');
    await page.getByRole('button', { name: 'В корзину' }).first().waitFor();
    // `В корзину` shows at once; the DELETE lands after.
    await expect.poll(() => serverBasket(page)).toEqual({});
  });

  test('by the piece: whole pieces, a comma key is not taken, pasted digits are not joined across a comma or an e', async () => {
    const page = await openWithBasket({ 43: 1 }, '/product/43');
    const field = page.getByRole('textbox', { name: 'Количество, шт' });
    await expect.poll(() => field.inputValue()).toBe('1');

    await field.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2,');
    expect(await field.inputValue()).toBe('2');
    await field.press('Enter');
    await expect.poll(() => serverBasket(page)).toEqual({ 43: 2 });

    for (const [entry, shown, amount] of [
      ['3,7', '3', 3], // not 37 (then 10)
      ['1e9', '1', 1], // not 19 (then 10)
      ['12', '10', 10], // the maximum
      ['٣', '10', 10],
    ] as const) {
      await field.click();
      await page.keyboard.press('Control+A');
      await paste(page, entry);
      await field.press('Enter');
      await expect.poll(() => serverBasket(page), { message: entry }).toEqual({ 43: amount });
      await expect.poll(() => field.inputValue(), { message: entry }).toBe(shown);
    }
  });
});

describe('a pasted phone number', () => {
  const VALID = [
    '8 912 345-67-89',
    '+7 (912) 345-67-89',
    '89123456789',
    '9123456789',
    '+79123456789',
    '8(912)3456789',
    '7 912 345 67 89',
    '(912) 345-67-89',
    ' 8\t912\t345\t67\t89 ',
    '+7\u00a0912\u00a0345-67-89',
  ];
  const INVALID = ['912345', '+7 (812) 345-67-89', '8 812 345 67 89', '12345678901'];

  test('lands as +7(912)-345-67-89 from every common format; others get «Некорректный номер»', async () => {
    const page = await openWithBasket({ 7: 1.5 }, '/commit');
    const phone = page.getByRole('textbox', { name: 'Телефон' });
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
    const submit = page.getByRole('button', { name: 'Подтвердить' });
    const invalid = page.getByText('Некорректный номер', { exact: true });
    // The delivery is left unchosen, so a submit only validates: no order is placed.
    const deliveryMissing = page.getByText('Выберите один из способов получения', { exact: true });

    const pasteInto = async (text: string) => {
      await phone.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      expect(await phone.inputValue()).toBe('');
      await paste(page, text);
    };

    for (const text of VALID) {
      await pasteInto(text);
      expect(await phone.inputValue(), JSON.stringify(text)).toBe('+7(912)-345-67-89');
      await submit.click();
      await deliveryMissing.waitFor();
      expect(await invalid.count(), JSON.stringify(text)).toBe(0);
    }
    for (const text of INVALID) {
      await pasteInto(text);
      await submit.click();
      await invalid.waitFor();
      expect(await phone.getAttribute('aria-invalid'), JSON.stringify(text)).toBe('true');
    }
    expect(await serverBasket(page)).toEqual({ 7: 1.5 });
    expect(new URL(page.url()).pathname).toBe('/commit');
  });
});
