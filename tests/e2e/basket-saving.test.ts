// Spec §4: "Controls are disabled while the basket or that product's line is loading." A tap on
// plus shows the new amount at once; until the server has answered, that line's minus (or
// delete), amount field and plus are disabled on every screen that shows it, and other lines stay
// usable. The test holds the line's PUT (held-answers.ts) while it looks, then releases it.
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { control, hydrated, openPage, screenshot, setupBrowser } from './browser.ts';
import { acceptCookies, serverBasket, setServerBasket } from './failures-helpers.ts';
import { apiPath, holdAnswers } from './held-answers.ts';

const browser = setupBrowser();

beforeEach(async () => {
  await control('/__control/reset');
});

const RASPBERRY = { id: 7, name: 'Малина' }; // кг by 0.1; on the home page twice
const JAM = { id: 43, name: 'Варенье клубничное, 400 г' }; // шт
const BLUEBERRY = { id: 16, name: 'Голубика' }; // кг by 0.1; on the home page twice

async function withBasket(lines: Record<number, number>, path: string): Promise<Page> {
  const page = await openPage(browser(), '/policy');
  await acceptCookies(page);
  await setServerBasket(page, lines);
  await page.goto(path);
  return page;
}

/** The PUTs of one line, held until the test releases them. */
const holdPut = (page: Page, id: number) =>
  holdAnswers(page, apiPath(`/api/catalog/basket/${id}`), 'PUT');

/** The three controls of the one line inside `scope` (a product card, a basket line). */
function controlsOf(scope: Locator) {
  return {
    minus: scope.getByRole('button', { name: /^Уменьшить количество: / }),
    field: scope.getByRole('textbox', { name: /^Количество, / }),
    plus: scope.getByRole('button', { name: /^Увеличить количество: / }),
  };
}

/** For each of the three controls: disabled, as a shopper (and Playwright's click) meets it. */
async function disabledStates(scope: Locator): Promise<boolean[]> {
  const { minus, field, plus } = controlsOf(scope);
  return Promise.all([minus.isDisabled(), field.isDisabled(), plus.isDisabled()]);
}

describe('while a line saves, its controls wait for the server', () => {
  test('/order: minus, the amount, plus and remove wait; the other line stays usable', async () => {
    const page = await withBasket({ [RASPBERRY.id]: 1.5, [JAM.id]: 2 }, '/order');
    const raspberry = page.getByRole('article', { name: RASPBERRY.name });
    const jam = page.getByRole('article', { name: JAM.name });
    const field = controlsOf(raspberry).field;
    await expect.poll(() => field.inputValue()).toBe('1,5');

    const put = await holdPut(page, RASPBERRY.id);
    await controlsOf(raspberry).plus.click();
    await put.asked;
    // The new amount shows at once; the line's controls wait, its remove button too.
    await expect.poll(() => field.inputValue()).toBe('1,6');
    await expect.poll(() => disabledStates(raspberry)).toEqual([true, true, true]);
    const remove = raspberry.getByRole('button', { name: `Удалить из корзины: ${RASPBERRY.name}` });
    expect(await remove.isDisabled()).toBe(true);
    expect(await raspberry.getByTestId('basket-control').getAttribute('aria-busy')).toBe('true');
    expect(await disabledStates(jam)).toEqual([false, false, false]);
    await screenshot(page, 'basket line saving');

    // Impatient taps on the waiting line send nothing more.
    await controlsOf(raspberry).plus.click({ force: true });
    await remove.click({ force: true });
    // The other line saves on its own meanwhile.
    await controlsOf(jam).plus.click();
    const jamControl = jam.getByTestId('basket-control');
    await expect
      .poll(async () => [
        await controlsOf(jam).field.inputValue(),
        await jamControl.getAttribute('aria-busy'),
      ])
      .toEqual(['3', 'false']);
    expect(await disabledStates(raspberry)).toEqual([true, true, true]);
    expect(put.count()).toBe(1);

    put.release();
    await expect.poll(() => disabledStates(raspberry)).toEqual([false, false, false]);
    expect(await remove.isDisabled()).toBe(false);
    expect(await field.inputValue()).toBe('1,6');
    expect(await serverBasket(page)).toEqual({ [RASPBERRY.id]: 1.6, [JAM.id]: 3 });
    expect(put.count()).toBe(1);
  });

  test('home: every card of the product waits, in the carousel and in the grid; others do not', async () => {
    const page = await withBasket({ [RASPBERRY.id]: 1, [BLUEBERRY.id]: 1 }, '/');
    const cards = (name: string) =>
      page.getByTestId('product-card').filter({
        has: page.getByRole('button', { name: `Увеличить количество: ${name}` }),
      });
    // Both products are in the «Сезонные хиты» carousel and among the popular products.
    await expect.poll(() => cards(RASPBERRY.name).count()).toBe(2);
    await expect.poll(() => cards(BLUEBERRY.name).count()).toBe(2);

    const put = await holdPut(page, RASPBERRY.id);
    const popular = page.getByRole('region', { name: 'Популярные товары' });
    await controlsOf(
      popular
        .getByTestId('product-card')
        .filter({ has: page.locator(`a[href="/product/${RASPBERRY.id}"]`) })
        .first(),
    ).plus.click();
    await put.asked;
    for (const card of await cards(RASPBERRY.name).all()) {
      await expect.poll(() => disabledStates(card)).toEqual([true, true, true]);
      expect(await controlsOf(card).field.inputValue()).toBe('1,1');
    }
    for (const card of await cards(BLUEBERRY.name).all()) {
      expect(await disabledStates(card)).toEqual([false, false, false]);
    }

    put.release();
    for (const card of await cards(RASPBERRY.name).all()) {
      await expect.poll(() => disabledStates(card)).toEqual([false, false, false]);
    }
    expect(await serverBasket(page)).toEqual({ [RASPBERRY.id]: 1.1, [BLUEBERRY.id]: 1 });
  });

  test('a section grid: the card that saves waits, the one beside it does not', async () => {
    // Section 15 («Малина и ежевика») holds products 7 and 8.
    const page = await withBasket({ [RASPBERRY.id]: 1, 8: 1 }, '/section/15');
    const card = (id: number) =>
      page
        .getByTestId('product-card')
        .filter({ has: page.locator(`a[href="/product/${id}"]`) })
        .first();
    const raspberry = card(RASPBERRY.id);
    const other = card(8);
    await controlsOf(raspberry).plus.waitFor();

    const put = await holdPut(page, RASPBERRY.id);
    await controlsOf(raspberry).minus.click();
    await put.asked;
    await expect.poll(() => disabledStates(raspberry)).toEqual([true, true, true]);
    expect(await controlsOf(raspberry).field.inputValue()).toBe('0,9');
    expect(await disabledStates(other)).toEqual([false, false, false]);
    put.release();
    await expect.poll(() => disabledStates(raspberry)).toEqual([false, false, false]);
    expect(await serverBasket(page)).toEqual({ [RASPBERRY.id]: 0.9, 8: 1 });
  });

  test('by keyboard: plus keeps the focus while it waits, and Enter meanwhile adds nothing', async () => {
    const page = await withBasket({ [RASPBERRY.id]: 1 }, `/product/${RASPBERRY.id}`);
    const { field, plus } = controlsOf(page.getByTestId('product-card'));
    await expect.poll(() => field.inputValue()).toBe('1');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

    const put = await holdPut(page, RASPBERRY.id);
    await plus.focus();
    await page.keyboard.press('Enter');
    await put.asked;
    await expect.poll(() => plus.isDisabled()).toBe(true);
    expect(await focused()).toBe(`Увеличить количество: ${RASPBERRY.name}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    expect(await field.inputValue()).toBe('1,1');

    put.release();
    await expect.poll(() => plus.isDisabled()).toBe(false);
    expect(await focused()).toBe(`Увеличить количество: ${RASPBERRY.name}`);
    // Answered, the next Enter is taken.
    await page.keyboard.press('Enter');
    await expect.poll(() => serverBasket(page)).toEqual({ [RASPBERRY.id]: 1.2 });
    expect(put.count()).toBe(2);
  });
});

describe('a newcomer on a page a shared cache may keep', () => {
  test('a tap while the app’s first basket call is on its way lands in their one session', async () => {
    // A page for everyone comes without a session: the app's first call starts it, and a change
    // sent alongside would start a second one, whose cookie the first's answer then replaces.
    const page = await openPage(browser(), '/robots.txt', { waitUntil: 'load' });
    const startUp = await holdAnswers(page, apiPath('/api/catalog/basket'), 'GET');
    const events: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') events.push('change sent');
    });
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname === '/api/catalog/basket' && response.request().method() === 'GET') {
        events.push('session started');
      }
    });
    await page.goto('/product/7');
    expect((await page.context().cookies()).map(({ name }) => name)).not.toContain('sessionid');
    await startUp.asked;
    await hydrated(page);
    const settled = page.waitForResponse((answer) => answer.request().method() === 'PUT');
    await page.locator('main').getByRole('button', { name: 'В корзину' }).first().click();
    startUp.release();
    expect((await settled).status()).toBe(200);
    expect(events.slice(0, 2)).toEqual(['session started', 'change sent']);
    await page.reload();
    const field = page.getByRole('textbox', { name: /^Количество, / }).first();
    await expect.poll(() => field.inputValue()).toBe('0,1');
  });
});
