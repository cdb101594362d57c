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
  type Features,
  featuresOf,
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
 * What the engines a machine may have support, of what the sold-out dialog uses without
 * JavaScript. The test asks the engine itself (featuresOf) and prints what it found; this table
 * only says what to expect where:
 *
 * | engine                                        | invoker commands | popover |
 * | --------------------------------------------- | ---------------- | ------- |
 * | Chromium 150 (Debian 12), 156 (Debian 13)     | yes (since 135)  | yes     |
 * | Firefox ESR 140 (Debian 12's bookworm/main)   | no               | yes     |
 * | Firefox ESR 153 (bookworm-security, Debian 13) | yes (since 144) | yes     |
 * | WebKitGTK 2.50 (Safari 26.0's engine)         | no (Safari 26.2) | yes     |
 */

/**
 * How Недоступно's «Товар закончился» shows, for what the engine supports. Without JavaScript it
 * is the browser's own doing: invoker commands (`command="show-modal"`) open a true modal; an
 * engine without them opens it through the dialog's `popovertarget` as a popover instead
 * (centred, in view, the page dimmed, Ok and the cross close it, but the page behind stays
 * reachable by Tab). With JavaScript the app opens the modal itself where the browser cannot.
 */
function soldOutShown({ invokerCommands, popover }: Features, javaScript: boolean): DialogShown {
  if (javaScript || invokerCommands) return { modal: true, popover: false, inView: true };
  if (popover) return { modal: false, popover: true, inView: true };
  throw new Error(
    'this engine has neither invoker commands nor popovers: without JavaScript the shop cannot ' +
      'open the dialog in it',
  );
}

const yesNo = (supported: boolean) => (supported ? 'yes' : 'no');

beforeEach(async () => {
  await control('reset');
});

describe.each(['Chromium', 'Firefox', 'WebKit'] as const)('in %s', (engine) => {
  describe.each([
    ['with', true],
    ['without', false],
  ] as const)('%s JavaScript', (_how, javaScript) => {
    test('a shopper buys: В корзину, +, the price button, the checkout, «Создан»', async () => {
      await purchase(await open[engine](javaScript));
    });

    test('the demo shopper logs in and sees their past orders', async () => {
      await loginWithPastOrders(await open[engine](javaScript));
    });

    test('Недоступно opens «Товар закончился», and Ok closes it', async () => {
      const shopper = await open[engine](javaScript);
      const features = await featuresOf(shopper);
      // In CI's log: what this engine is and what it was found to support.
      console.info(
        `e2e: ${engine} ${await shopper.version()}: invoker commands ${yesNo(features.invokerCommands)}, ` +
          `popover ${yesNo(features.popover)} (JavaScript ${javaScript ? 'on' : 'off'})`,
      );
      const shown = await soldOutDialog(shopper);
      expect(shown).toEqual(soldOutShown(features, javaScript));
    });

    test('the notice accepted and the theme are kept across a reload and on a page seen before', async () => {
      await themeAndNoticeKept(await open[engine](javaScript));
    });
  });
});
