// Issue 32: the shopper's path, written once against a small driver interface (Shopper) and run
// by each engine's adapter (tests/e2e/engines.ts): Chromium through playwright-core, Firefox
// through puppeteer-core over WebDriver BiDi, WebKit through selenium-webdriver and
// WebKitWebDriver. Each step does what a shopper does (goes to an address, presses a button by
// its name, types) and checks what a shopper would see, with JavaScript and without.
import { expect } from 'vitest';

export type Engine = 'Chromium' | 'Firefox' | 'WebKit';

/** The few things the path does with a browser tab, alike in every engine. */
export interface Shopper {
  readonly engine: Engine;
  readonly javaScript: boolean;
  /** Opens a path of the suite's shop; with JavaScript, waits until the app has the page. */
  goto(path: string): Promise<void>;
  reload(): Promise<void>;
  /** Clicks the element the page marked `data-shopper-target` (see press()), as a user would. */
  clickTarget(): Promise<void>;
  /** Types into the element the page marked `data-shopper-target`, after clearing it. */
  typeIntoTarget(text: string): Promise<void>;
  /** Runs `fn` in the page (by the driver: it works with the page's JavaScript off too). */
  evaluate<A, T>(fn: (arg: A) => T, arg: A): Promise<T>;
  /** The cookies of the shop's address: name -> value. */
  cookies(): Promise<Record<string, string>>;
  /** The engine's version, as its driver reports it. */
  version(): Promise<string>;
}

/** What the engine supports, of what the shop's controls do without JavaScript. */
export interface Features {
  /** Invoker commands: a button's `command` run on its `commandfor` element by the browser. */
  invokerCommands: boolean;
  /** The Popover API: `popovertarget` shows and hides a `popover` element. */
  popover: boolean;
}

/** Asks the engine (the driver's script: it runs with the page's JavaScript off too). */
export const featuresOf = (shopper: Shopper): Promise<Features> =>
  shopper.evaluate(
    () => ({
      invokerCommands: 'command' in HTMLButtonElement.prototype,
      popover: typeof HTMLElement.prototype.showPopover === 'function',
    }),
    null,
  );

/**
 * Marks the first visible, enabled element matching `css` whose name (aria-label, else its text)
 * matches `name`; false when there is none yet. Enabled: a basket line's controls are
 * aria-disabled while the line saves, and ignore a press meanwhile, as a shopper sees. Runs in
 * the page.
 */
function markTarget({ css, name }: { css: string; name: string | null }): boolean {
  for (const old of document.querySelectorAll('[data-shopper-target]')) {
    old.removeAttribute('data-shopper-target');
  }
  const matches = (element: Element) => {
    if (name === null) return true;
    const label = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText ?? '';
    return new RegExp(name).test(label.replace(/\s+/g, ' ').trim());
  };
  const found = [...document.querySelectorAll(css)].find((element) => {
    const box = element.getBoundingClientRect();
    const enabled = !element.matches(':disabled, [aria-disabled="true"]');
    return box.width > 0 && box.height > 0 && enabled && matches(element);
  });
  found?.setAttribute('data-shopper-target', '');
  return found !== undefined;
}

/** A regular expression's source for a name: a string is matched whole. */
const namePattern = (name: string | RegExp | undefined): string | null =>
  name === undefined
    ? null
    : typeof name === 'string'
      ? `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`
      : name.source;

/** Waits until `fn` answers true in the page. */
export async function until<A>(shopper: Shopper, fn: (arg: A) => boolean, arg: A): Promise<void> {
  await expect.poll(() => shopper.evaluate(fn, arg)).toBe(true);
}

/** Marks the document, so that a new one (the answer to a form) can be told from it. */
const markDocument = (shopper: Shopper) =>
  shopper.evaluate(() => document.documentElement.setAttribute('data-shopper-seen', ''), null);

/** Waits for the next document, loaded: a form's answer (a 303) and the page it leads to. */
const nextDocument = (shopper: Shopper) =>
  until(
    shopper,
    () =>
      !document.documentElement.hasAttribute('data-shopper-seen') &&
      document.readyState === 'complete',
    null,
  );

/**
 * Presses the element matching `css` (and `name`, when given). With `navigates`, and always
 * without JavaScript when it is a form's button or a link, waits for the page it leads to.
 */
export async function press(
  shopper: Shopper,
  css: string,
  name?: string | RegExp,
  { navigates = !shopper.javaScript }: { navigates?: boolean } = {},
): Promise<void> {
  await until(shopper, markTarget, { css, name: namePattern(name) });
  if (navigates) await markDocument(shopper);
  await shopper.clickTarget();
  if (navigates) await nextDocument(shopper);
}

/** Types `text` into the field matching `css`. */
export async function type(shopper: Shopper, css: string, text: string): Promise<void> {
  await until(shopper, markTarget, { css, name: null });
  await shopper.typeIntoTarget(text);
}

const textOf = (shopper: Shopper, css: string) =>
  shopper.evaluate(
    (selector) => (document.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    css,
  );

const pathname = (shopper: Shopper) => shopper.evaluate(() => location.pathname, null);

const atPath = (shopper: Shopper, path: string) =>
  until(shopper, (wanted) => location.pathname === wanted, path);

const amountOf = (shopper: Shopper) =>
  shopper.evaluate(
    () => (document.querySelector('main input[name="amount"]') as HTMLInputElement | null)?.value,
    null,
  );

const BUTTON = 'button, [role="button"], input[type="submit"]';
const LINK = 'a[href]';

/** Accepts the cookie notice by its button (a form without JavaScript, the app's with it). */
async function acceptNotice(shopper: Shopper): Promise<void> {
  await press(shopper, `[aria-label="Уведомление о cookie"] button`, 'Продолжить');
  await until(
    shopper,
    () => document.querySelector('[aria-label="Уведомление о cookie"]') === null,
    null,
  );
}

/**
 * The purchase: a product in the basket (В корзину, then +), the price button to /order,
 * Продолжить to /commit, the phone, pickup and the policy's box, Подтвердить: the order
 * «Создан» in /order_status, the basket empty again.
 */
export async function purchase(shopper: Shopper): Promise<void> {
  // Product 4: jam, 420 ₽ a piece (stub-server/fixtures/catalog.ts).
  await shopper.goto('/product/4');
  await acceptNotice(shopper);
  await press(shopper, `main ${BUTTON}`, 'В корзину');
  await expect.poll(() => amountOf(shopper)).toBe('1');
  await press(shopper, `main ${BUTTON}`, /^Увеличить количество/);
  await expect.poll(() => amountOf(shopper)).toBe('2');
  await expect
    .poll(() =>
      shopper.evaluate(
        () => document.querySelector('a[aria-label^="Корзина на сумму"]')?.textContent ?? '',
        null,
      ),
    )
    .toMatch(/840\s₽/);
  await press(shopper, 'a[aria-label^="Корзина на сумму"]', undefined, { navigates: false });
  await atPath(shopper, '/order');
  await until(shopper, () => document.querySelector('[data-testid="basket-line"]') !== null, null);
  await press(shopper, `main ${LINK}`, 'Продолжить', { navigates: false });
  await atPath(shopper, '/commit');
  await type(shopper, 'input[name="phone"]', '9123456789');
  await press(shopper, 'input[name="delivery"][value="2"]', undefined, { navigates: false });
  await press(shopper, 'input[name="policy_accept"]', undefined, { navigates: false });
  await press(shopper, `main ${BUTTON}`, 'Подтвердить', { navigates: false });
  await atPath(shopper, '/order_status');
  await until(shopper, () => document.querySelector('[data-testid="order-status"]') !== null, null);
  expect(await textOf(shopper, '[data-testid="order-status"]')).toBe('Создан');
  expect(await textOf(shopper, '[data-testid="order-sum"]')).toMatch(/^840\s₽$/);
  await shopper.goto('/order');
  await until(shopper, () => document.body.innerText.includes('В корзине пока пусто'), null);
}

/** Login as the demo shopper (demo/berries2026): back on /order_status, their past orders. */
export async function loginWithPastOrders(shopper: Shopper): Promise<void> {
  await shopper.goto('/login/?next_page=/order_status');
  await type(shopper, 'input[name="username"]', 'demo');
  await type(shopper, 'input[name="password"]', 'berries2026');
  await press(shopper, `main ${BUTTON}`, 'Войти', { navigates: false });
  await atPath(shopper, '/order_status');
  await until(shopper, () => document.querySelectorAll('[data-testid="order"]').length > 0, null);
  expect(await pathname(shopper)).toBe('/order_status');
}

/** What the sold-out dialog is, once Недоступно has opened it. */
export interface DialogShown {
  /** A true modal (invoker commands, or the app's showModal()); else a popover. */
  modal: boolean;
  popover: boolean;
  /** Its box lies inside the screen, where a shopper reads it and reaches Ok. */
  inView: boolean;
}

/**
 * Недоступно on a sold-out product opens «Товар закончился» with the spec's text, and Ok closes
 * it. Returns how the engine showed it: without JavaScript, an engine without invoker commands
 * (WebKit 2.50) shows it as a popover, which the shopper reads and closes all the same.
 */
export async function soldOutDialog(shopper: Shopper): Promise<DialogShown> {
  await shopper.goto('/product/5');
  // The notice, at the bottom of a small window, would cover the button.
  await acceptNotice(shopper);
  await press(shopper, `main ${BUTTON}`, 'Недоступно', { navigates: false });
  const dialog = 'dialog[aria-labelledby]';
  await until(
    shopper,
    (css) => {
      const element = document.querySelector(css);
      return element !== null && element.getBoundingClientRect().height > 0;
    },
    dialog,
  );
  expect(await textOf(shopper, dialog)).toMatch(
    /Товар закончился.*оставить заявку.*сообщим вам, когда товар снова появится в продаже.*цена товара может измениться/,
  );
  const shown = await shopper.evaluate((css) => {
    const element = document.querySelector(css)!;
    const box = element.getBoundingClientRect();
    return {
      modal: element.matches(':modal'),
      popover: element.matches(':popover-open'),
      inView: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
    };
  }, dialog);
  await press(shopper, `${dialog} button`, 'Ok', { navigates: false });
  await until(
    shopper,
    (css) => document.querySelector(css)!.getBoundingClientRect().height === 0,
    dialog,
  );
  return shown;
}

/** The theme and the notice as the page shows them. */
const themeAndNotice = (shopper: Shopper) =>
  shopper.evaluate(
    () => ({
      theme: document.documentElement.getAttribute('data-mantine-color-scheme'),
      notice: document.querySelector('[aria-label="Уведомление о cookie"]') !== null,
    }),
    null,
  );

/**
 * The notice accepted and the dark theme chosen are kept across a reload and on a page seen
 * before (opened again by its address: the browser must not show its cached copy).
 */
export async function themeAndNoticeKept(shopper: Shopper): Promise<void> {
  const seen = '/product/17';
  await shopper.goto(seen);
  expect(await themeAndNotice(shopper)).toEqual({ theme: 'light', notice: true });
  await shopper.goto('/catalog');
  await acceptNotice(shopper);
  await press(shopper, 'header button, button[aria-label="Переключить тему"]', 'Переключить тему');
  await until(
    shopper,
    () => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark',
    null,
  );
  const kept = { theme: 'dark', notice: false };
  await shopper.reload();
  expect(await themeAndNotice(shopper)).toEqual(kept);
  await shopper.goto(seen);
  expect(await themeAndNotice(shopper)).toEqual(kept);
  expect(await shopper.cookies()).toMatchObject({ theme: 'dark' });
}
