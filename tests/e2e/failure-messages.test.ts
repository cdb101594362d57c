// The shopper's message says what happened (issue 43): the backend could not be reached, it
// answered with an error, or it answered in a way the shop cannot read. Each case has its own
// Russian text, on a page (the orders) and in a form (the login), without JavaScript (the shop's
// server calls the backend) and with it (the app calls it through the shop's /api); and the
// operator's log names the case and the call. One shop in front of a backend whose answers to
// those two calls are twisted, one case after another.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openPage, screenshot, setupBrowser } from './browser.ts';
import { submit } from './failures-helpers.ts';
import type { Twist } from './fault-backends.ts';
import { type TwistedShop, twistedShop } from './twisted-shop.ts';

const browser = setupBrowser();

const CASES: {
  name: string;
  twist: Twist;
  /** What the server's calls and /api's call meet: the case and outcome in the log. */
  logged: { case: string; outcome: string };
  orders: string;
  login: string;
}[] = [
  {
    name: 'the backend cannot be reached',
    twist: 'cut',
    logged: { case: 'unreachable', outcome: 'refused' },
    orders:
      'Не удалось загрузить заказы: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    login:
      'Не удалось войти: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
  },
  {
    name: 'the backend answers with an error',
    twist: 'error',
    logged: { case: 'error', outcome: '5xx' },
    orders:
      'Не удалось загрузить заказы: сервер магазина ответил ошибкой. Попробуйте ещё раз чуть позже.',
    login: 'Не удалось войти: сервер магазина ответил ошибкой. Попробуйте ещё раз чуть позже.',
  },
  {
    name: 'the backend answers JSON of another shape',
    twist: 'shape',
    logged: { case: 'unreadable', outcome: 'bad_shape' },
    orders:
      'Не удалось загрузить заказы: сервер магазина прислал ответ, который не удалось прочитать. Попробуйте ещё раз чуть позже.',
    login:
      'Не удалось войти: сервер магазина прислал ответ, который не удалось прочитать. Попробуйте ещё раз чуть позже.',
  },
];

const TWISTED = new Set(['/api/catalog/order_history', '/api/auth/token/']);

let twisted: TwistedShop;
/** The shop's JSON log (pino), line by line. */
let log: Record<string, unknown>[] = [];

beforeAll(async () => {
  twisted = await twistedShop({
    dataTimeoutMs: 10_000,
    formTimeoutMs: 10_000,
    logDestination: { write: (line: string) => void log.push(JSON.parse(line)) },
  });
});

afterAll(async () => {
  await twisted.close();
});

afterEach(() => {
  twisted.backend.twist(null);
  log = [];
});

/** The operator's line for `call` that failed so, under the id of the request that made it. */
const failedLine = (logged: { case: string; outcome: string }, call: string) =>
  expect.objectContaining({
    level: 40,
    msg: 'backend call failed',
    id: expect.stringMatching(/^[0-9a-f]{32}$/),
    ...logged,
    call,
  });

const phone = { width: 390, height: 844 };
/** The browser logs the failed /api calls (502 from the shop, or the backend's 500) itself. */
const FAILED_LOAD = /^Failed to load resource: the server responded with a status of 50[02]/;

async function logIn(page: Page, withApp: boolean): Promise<void> {
  await page.getByLabel('Логин').fill('demo');
  await page.getByLabel('Пароль').fill('berries2026');
  if (withApp) await page.locator('main').getByRole('button', { name: 'Войти' }).click();
  else expect(await submit(page, 'Войти', '/login/')).toBe(200);
}

describe.each(CASES)('$name', ({ twist, logged, orders, login }) => {
  test('without JavaScript: the orders page and the login form say so', async () => {
    twisted.backend.twist(twist, (req) => TWISTED.has(req.url ?? ''));
    const page = await openPage(browser(), '/order_status', {
      baseURL: twisted.shop.url,
      javaScriptEnabled: false,
      viewport: phone,
    });
    await page.getByRole('alert').filter({ hasText: orders }).waitFor();
    await screenshot(page, `message orders ${twist} no js`);
    await page.goto('/login/');
    await logIn(page, false);
    await page.getByText(login).waitFor();
    expect(await page.getByLabel('Логин').inputValue()).toBe('demo');
    await screenshot(page, `message login ${twist} no js`);
    // The operator's log names the case and each call.
    expect(log).toEqual(
      expect.arrayContaining([
        failedLine(logged, 'GET /api/catalog/order_history'),
        failedLine(logged, 'POST /api/auth/token/'),
      ]),
    );
  });

  test('with the app: the orders page and the login form say so too', async () => {
    twisted.backend.twist(twist, (req) => TWISTED.has(req.url ?? ''));
    const page = await openPage(browser(), '/login/', {
      baseURL: twisted.shop.url,
      viewport: phone,
      allowConsoleErrors: [FAILED_LOAD],
    });
    const answered = page.waitForResponse((answer) => answer.url().endsWith('/api/auth/token/'));
    await logIn(page, true);
    await answered;
    await page.getByText(login).waitFor();
    // The app asks for the orders again itself once it runs: its message is its own reading.
    const history = page.waitForResponse((answer) =>
      answer.url().endsWith('/api/catalog/order_history'),
    );
    await page.goto('/order_status');
    await history;
    await page.getByRole('alert').filter({ hasText: orders }).waitFor();
    await screenshot(page, `message orders ${twist} app`);
    // The shop's /api, for the app's calls: the proxy names its own refusals; the backend's 500
    // passed on as it came is the backend's own.
    if (twist !== 'error') {
      expect(log).toEqual(expect.arrayContaining([failedLine(logged, 'POST /api/auth/token/')]));
    }
  });
});
