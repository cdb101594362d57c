// Issue 26: with JavaScript off (which is also a slow phone's first seconds), every button a
// shopper can see does something by itself: it submits a form, opens a popover or a dialog
// (popovertarget, commandfor, a <details>' summary), or it is a link. A button that needs the
// app's code must stay hidden until the app runs. Counted on the 12 routes, at a phone's
// width and at a desktop's (where the carousels' arrows show on hover, so they count too).
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { control, openPage, setupBrowser } from './browser.ts';
import { CENSUS_ROUTES as ROUTES } from './census-routes.ts';
import { setServerBasket } from './failures-helpers.ts';

const browser = setupBrowser();

interface Control {
  /** What a screen reader would call it, roughly: its label or text. */
  name: string;
  /** How it works without the app; null: it does nothing. */
  works: 'form' | 'popover' | 'dialog' | 'details' | 'link' | null;
}

/**
 * Every visible, enabled button-like element of the page and how it works by itself. Runs in
 * the page: the DOM's own answers (a button's form, its popover target), no script of the shop.
 */
function census(page: Page): Promise<Control[]> {
  return page.evaluate(() => {
    const selector =
      'button, summary, [role="button"], input[type="submit"], input[type="button"], input[type="reset"], input[type="image"]';
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return (
        box.width > 0 &&
        box.height > 0 &&
        element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })
      );
    };
    const works = (element: Element): Control['works'] => {
      if (element instanceof HTMLAnchorElement && element.hasAttribute('href')) return 'link';
      if (
        element instanceof HTMLElement &&
        element.tagName === 'SUMMARY' &&
        element.parentElement instanceof HTMLDetailsElement &&
        element.parentElement.querySelector(':scope > summary') === element
      ) {
        return 'details';
      }
      if (element instanceof HTMLButtonElement || element instanceof HTMLInputElement) {
        const popover = element.getAttribute('popovertarget');
        if (popover && document.getElementById(popover)?.hasAttribute('popover')) return 'popover';
        const commandFor = element.getAttribute('commandfor');
        const command = element.getAttribute('command') ?? '';
        const target = commandFor ? document.getElementById(commandFor) : null;
        if (
          target &&
          /^(show-modal|close|request-close|toggle-popover|show-popover|hide-popover)$/.test(
            command,
          )
        ) {
          return 'dialog';
        }
        if (element.type === 'submit' && element.form) return 'form';
      }
      return null;
    };
    return [...document.querySelectorAll(selector)]
      .filter((element) => visible(element))
      .filter((element) => !(element as HTMLButtonElement).disabled)
      .map((element) => ({
        name: (
          element.getAttribute('aria-label') ??
          (element as HTMLElement).innerText ??
          element.tagName
        )
          .trim()
          .replace(/\s+/g, ' ')
          .slice(0, 60),
        works: works(element),
      }));
  });
}

async function deadControls(page: Page, route: string): Promise<string[]> {
  await page.goto(route);
  // The server's whole page: the footer is its last part.
  await page.locator('footer').waitFor();
  const controls = await census(page);
  // A page with no button at all would prove nothing (the theme toggle is on every page).
  expect(controls.length, route).toBeGreaterThan(0);
  return controls.filter((found) => found.works === null).map((found) => `${route}: ${found.name}`);
}

describe('with JavaScript off, every visible button works by itself', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`on the 12 routes at ${viewport.width} px`, async () => {
      await control('reset');
      const page = await openPage(browser(), '/', { javaScriptEnabled: false, viewport });
      // /order and /commit with a line in the basket: their forms and buttons show.
      await setServerBasket(page, { 7: 1 });
      const dead: string[] = [];
      for (const route of ROUTES) dead.push(...(await deadControls(page, route)));
      expect(dead).toEqual([]);
    });
  }
});
