// Issue 32: the shopper's path (tests/e2e/shopper-path.ts, written once) in the three engines
// shoppers use: Chromium, Firefox (Debian's firefox-esr) and Safari's WebKit (WebKitGTK), each
// with JavaScript and without. A change that breaks the shop in one of them fails here.
import { beforeEach, describe, expect, test } from 'vitest';
import { control, setupBrowser } from './browser.ts';
import { chromiumShopper, firefoxShopper, webkitShopper } from './engines.ts';
import { setupFirefox } from './firefox.ts';
import {
  type DialogShown,
  type Engine,
  loginWithPastOrders,
  purchase,
  type Shopper,
  soldOutDialog,
  themeAndNoticeKept,
} from './shopper-path.ts';
import { setupWebKit } from './webkit.ts';

const chromium = setupBrowser();
const firefox = setupFirefox();
const webkit = setupWebKit();

const open: Record<Engine, (javaScript: boolean) => Promise<Shopper>> = {
  Chromium: (javaScript) => chromiumShopper(chromium(), javaScript),
  Firefox: (javaScript) => firefoxShopper(firefox, javaScript),
  WebKit: (javaScript) => webkitShopper(webkit, javaScript),
};

/**
 * How Недоступно's «Товар закончился» shows. Without JavaScript it is the browser's own doing:
 * invoker commands (`command="show-modal"`) open a true modal in Chromium and Firefox 153;
 * WebKit 2.50 has none, and the dialog's `popovertarget` opens it as a popover instead: centred,
 * in view, the page dimmed, Ok and the cross close it, but the page behind stays reachable by Tab.
 * With JavaScript the app opens the modal itself where the browser cannot.
 */
const SOLD_OUT_SHOWN: Record<Engine, Record<'with' | 'without', DialogShown>> = {
  Chromium: {
    with: { modal: true, popover: false, inView: true },
    without: { modal: true, popover: false, inView: true },
  },
  Firefox: {
    with: { modal: true, popover: false, inView: true },
    without: { modal: true, popover: false, inView: true },
  },
  WebKit: {
    with: { modal: true, popover: false, inView: true },
    without: { modal: false, popover: true, inView: true },
  },
};

beforeEach(async () => {
  await control('reset');
});

describe.each(['Chromium', 'Firefox', 'WebKit'] as const)('in %s', (engine) => {
  describe.each([
    ['with', true],
    ['without', false],
  ] as const)('%s JavaScript', (how, javaScript) => {
    test('a shopper buys: В корзину, +, the price button, the checkout, «Создан»', async () => {
      await purchase(await open[engine](javaScript));
    });

    test('the demo shopper logs in and sees their past orders', async () => {
      await loginWithPastOrders(await open[engine](javaScript));
    });

    test('Недоступно opens «Товар закончился», and Ok closes it', async () => {
      const shown = await soldOutDialog(await open[engine](javaScript));
      expect(shown).toEqual(SOLD_OUT_SHOWN[engine][how]);
    });

    test('the notice accepted and the theme are kept across a reload and on a page seen before', async () => {
      await themeAndNoticeKept(await open[engine](javaScript));
    });
  });
});
