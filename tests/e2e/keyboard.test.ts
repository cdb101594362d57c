// The purchase by keyboard alone with the focus always in sight: every main control on the way
// (the catalogue button, the header menu and its items, В корзину, plus, the amount, Продолжить,
// the phone, the delivery radios, the consent, Подтвердить) shows a focus ring that stands out
// from what is around it by 3:1 or more (WCAG 1.4.11), in both themes. purchase.test.ts checks
// that the keyboard purchase itself works; this file checks that a shopper can see where they are.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { baseUrl, control, openPage, setupBrowser } from './browser.ts';

const browser = setupBrowser();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const JAM = { id: 43, name: 'Варенье клубничное, 400 г' }; // шт, 20 in stock

beforeEach(async () => {
  await control('/__control/reset');
});

interface Focus {
  /** Role or tag, and accessible name as far as the DOM tells it. */
  label: string;
  role: string;
  /** 'none' when nothing marks the focus. */
  ring: string;
  /** Contrast of the ring against the background behind it; null for the browser's own ring. */
  contrast: number | null;
}

/** What the focused element looks like: its outline (or shadow) and that ring's contrast. */
function describeFocus(page: Page): Promise<Focus | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body) return null;
    const rgb = (color: string): [number, number, number, number] | null => {
      const match = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(color);
      if (!match) return null;
      return [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4] ?? 1)];
    };
    const luminance = ([r, g, b]: readonly number[]) => {
      const linear = (v = 0) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    // The ring is drawn around the element, over whatever its parents paint.
    let background: number[] = [255, 255, 255];
    for (let node = element.parentElement; node; node = node.parentElement) {
      const color = rgb(getComputedStyle(node).backgroundColor);
      if (color && color[3] > 0) {
        background = color;
        break;
      }
    }
    const style = getComputedStyle(element);
    const label =
      element.getAttribute('aria-label') ??
      (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ??
      element.textContent ??
      '';
    const role = element.getAttribute('role') ?? element.tagName.toLowerCase();
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
    let ring = 'none';
    let contrast: number | null = null;
    if (outlined) {
      ring = `outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
      const color = rgb(style.outlineColor);
      if (style.outlineStyle !== 'auto' && color) {
        const [ring, behind] = [luminance(color), luminance(background)];
        const ratio = (Math.max(ring, behind) + 0.05) / (Math.min(ring, behind) + 0.05);
        contrast = Math.round(ratio * 100) / 100;
      }
    } else if (style.boxShadow !== 'none') {
      ring = `shadow ${style.boxShadow}`;
    }
    return { label: label.trim().replace(/\s+/g, ' ').slice(0, 60), role, ring, contrast };
  });
}

/** The focused element shows a ring of at least 3:1 against its background. */
async function expectVisibleFocus(page: Page, expected: string | RegExp): Promise<void> {
  const focus = await describeFocus(page);
  expect(focus, 'nothing has the focus').not.toBeNull();
  expect(focus!.label).toMatch(expected);
  expect(focus!.ring, `${focus!.label}: no focus ring`).not.toBe('none');
  if (focus!.contrast !== null) {
    expect(
      focus!.contrast,
      `${focus!.label}: ring ${focus!.ring} has ${focus!.contrast}:1`,
    ).toBeGreaterThanOrEqual(3);
  }
}

/** Presses Tab (or Shift+Tab) until the focused element matches, as a keyboard user would. */
async function tabTo(
  page: Page,
  matches: (focus: Focus) => boolean,
  { backward = false, max = 60 } = {},
): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(backward ? 'Shift+Tab' : 'Tab');
    const focus = await describeFocus(page);
    if (focus && matches(focus)) return;
  }
  throw new Error(`${backward ? 'Shift+Tab' : 'Tab'} never reached the element`);
}

const named = (name: string) => (focus: Focus) => focus.label === name;

/** The basket as the stub holds it for this browser: product id -> amount. */
function serverBasket(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const answer = await fetch('/api/catalog/basket', { headers: { Accept: 'application/json' } });
    const lines = (await answer.json()) as Record<string, { amount: number }>;
    return Object.fromEntries(Object.entries(lines).map(([id, line]) => [id, line.amount]));
  });
}

for (const { scheme, viewport } of [
  { scheme: 'light' as const, viewport: DESKTOP },
  { scheme: 'dark' as const, viewport: PHONE },
]) {
  describe(`${scheme} theme, ${viewport.width} px`, () => {
    test('from a product to Заказы by keyboard, the focus ring always visible; the menu opens and its items are reached by keyboard', async () => {
      const page = await openPage(browser(), `/product/${JAM.id}`, {
        theme: scheme,
        viewport,
      });
      await page.context().addCookies([{ name: 'cookieAccepted', value: 'true', url: baseUrl() }]);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: JAM.name }).waitFor();
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);

      // The header: the catalogue button, then the menu, opened with Enter.
      await tabTo(page, named('Каталог'));
      await expectVisibleFocus(page, 'Каталог');
      await tabTo(page, named('Меню'));
      await expectVisibleFocus(page, 'Меню');
      // The menu's keyboard ways come with the app's menu code, which the focus has just asked for.
      await page.locator('#main-menu[data-enhanced]').waitFor({ state: 'attached' });
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      // The focus moves into the menu, onto its first item (WAI-ARIA menu button pattern).
      await expect.poll(async () => (await describeFocus(page))?.role).toBe('menuitem');
      await expectVisibleFocus(page, 'Заказы');
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });
      // The menu hands the focus back to its button as it closes.
      await expect.poll(async () => (await describeFocus(page))?.label).toBe('Меню');
      await expectVisibleFocus(page, 'Меню');

      // The product card: В корзину, plus, then the amount typed. After each, the line's
      // controls wait until it is saved (spec §4); the next key counts once they are usable.
      const control = page.getByTestId('basket-control');
      const saved = (amount: string) =>
        expect
          .poll(async () => [
            await control.getByRole('textbox').inputValue(),
            await control.getAttribute('aria-busy'),
          ])
          .toEqual([amount, 'false']);
      await tabTo(page, named('В корзину'));
      await expectVisibleFocus(page, 'В корзину');
      await page.keyboard.press('Enter');
      await saved('1');
      await tabTo(page, named(`Увеличить количество: ${JAM.name}`));
      await expectVisibleFocus(page, /^Увеличить количество/);
      await page.keyboard.press('Enter');
      await saved('2');
      // Plus kept the focus while the line saved.
      await expectVisibleFocus(page, /^Увеличить количество/);
      await page.keyboard.press('Shift+Tab');
      await expectVisibleFocus(page, 'Количество, шт');
      await page.keyboard.type('3');
      await page.keyboard.press('Enter');
      await expect.poll(() => serverBasket(page)).toEqual({ [JAM.id]: 3 });

      // Back to the menu: now it holds Корзина too, and the arrows move between the items.
      await tabTo(page, named('Меню'), { backward: true });
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: /Корзина/ }).waitFor();
      await expect.poll(async () => (await describeFocus(page))?.role).toBe('menuitem');
      await expectVisibleFocus(page, /^Корзина/);
      await page.keyboard.press('ArrowDown');
      await expectVisibleFocus(page, 'Заказы');
      await page.keyboard.press('ArrowUp');
      await expectVisibleFocus(page, /^Корзина/);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/order');
      // The page loads its code and the basket after the URL changes; tab once it is there.
      await page.getByText('Итого').waitFor();

      await tabTo(page, named('Продолжить'));
      await expectVisibleFocus(page, 'Продолжить');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/commit');
      await page.getByRole('textbox', { name: /Телефон/ }).waitFor();

      // The form: phone, comment, the delivery radios, the consent, Подтвердить.
      await tabTo(page, (focus) => focus.label.startsWith('Телефон'));
      await expectVisibleFocus(page, /^Телефон/);
      await page.keyboard.type('9123456789');
      await page.keyboard.press('Tab');
      await expectVisibleFocus(page, /^Комментарий к заказу/);
      await page.keyboard.press('Tab');
      await expectVisibleFocus(page, 'Доставка курьером');
      await page.keyboard.press('ArrowDown');
      await expectVisibleFocus(page, 'Самовывоз');
      expect(await page.getByRole('radio', { name: 'Самовывоз' }).isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      await expectVisibleFocus(page, /политикой конфиденциальности/);
      await page.keyboard.press('Space');
      await tabTo(page, named('Подтвердить'));
      await expectVisibleFocus(page, 'Подтвердить');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/order_status');
      // The history loads after the URL changes; tab once the rows are there, as a
      // busy CI machine may take longer than 60 Tabs to answer.
      await page.getByTestId('order').first().waitFor();

      // The new order's row opens from the keyboard, its button marked too.
      await tabTo(page, (focus) => focus.label.includes('Заказ №'));
      await expectVisibleFocus(page, /Заказ №/);
    });
  });
}
