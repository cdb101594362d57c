// The shop in front of an ordinary Django REST Framework backend (contracts/django/reference/),
// as production runs it: the production server with API_TARGET, a browser in another time zone,
// and nginx's X-Forwarded-For in front. An anonymous visitor buys (Django's CSRF check passes only
// when the basket handed the browser its token), then the demo user does after logging in.
// Product photos are the backend's JPEGs at its own absolute URLs; they must load under the CSP.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DjangoBackend, startDjangoBackend } from '../../contracts/django/reference/serve.ts';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import { openPage, screenshot, setupBrowser } from './browser.ts';

const browser = setupBrowser();

const RASPBERRY = { id: 7, name: 'Малина' }; // кг, by 0.1 (the stub's catalogue, seeded)
/** The visitor's address as nginx in front of the shop reports it. */
const VISITOR = '203.0.113.7';

let django: DjangoBackend;
let shop: RunningShop;

beforeAll(async () => {
  django = await startDjangoBackend({ port: 0 });
  shop = await startShopServer({ port: 0, apiTarget: django.url });
});
afterAll(async () => {
  await shop?.close();
  await django?.stop();
});

const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ').trim();

async function open(path: string): Promise<Page> {
  const page = await openPage(browser(), path, {
    baseURL: shop.url,
    // The order's time must follow the shop (Moscow), not the phone.
    timezoneId: 'UTC',
    extraHTTPHeaders: { 'X-Forwarded-For': VISITOR },
  });
  await page.context().addCookies([{ name: 'cookieAccepted', value: 'true', url: shop.url }]);
  await page.reload();
  return page;
}

/** The basket as the backend holds it for this browser: product id -> amount. */
function backendBasket(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('jwt');
    const answer = await fetch('/api/catalog/basket', {
      headers: {
        Accept: 'application/json',
        ...(token ? { Authorization: `Token ${token}` } : {}),
      },
    });
    const lines = (await answer.json()) as Record<string, { amount: number }>;
    return Object.fromEntries(Object.entries(lines).map(([id, line]) => [id, line.amount]));
  });
}

/**
 * The page's pictures come from the shop itself, none from the backend's address, and load: at
 * least one has, and none is broken (a picture the CSP blocks is broken, and logs an error).
 * Lazy pictures below the fold are not asked for yet.
 */
async function picturesLoaded(page: Page): Promise<void> {
  const pictures = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('main img')].map((img) => {
        const image = img as HTMLImageElement;
        const state = !image.complete ? 'pending' : image.naturalWidth > 0 ? 'loaded' : 'broken';
        return {
          state,
          sameOrigin: new URL(image.currentSrc || image.src).origin === location.origin,
        };
      }),
    );
  await expect
    .poll(async () => (await pictures()).some(({ state }) => state === 'loaded'))
    .toBe(true);
  const all = await pictures();
  expect(all.filter(({ state }) => state === 'broken')).toEqual([]);
  expect(all.filter(({ sameOrigin }) => !sameOrigin)).toEqual([]);
}

/** Basket, checkout and the order in Заказы, as spec §2 and §4 describe them. */
async function buyRaspberries(page: Page): Promise<void> {
  await page.goto(`/product/${RASPBERRY.id}`);
  await picturesLoaded(page);
  await page.getByRole('button', { name: 'В корзину' }).first().click();
  const amount = page.getByRole('textbox', { name: 'Количество, кг' }).first();
  await expect.poll(() => amount.inputValue()).toBe('0,1');
  await page
    .getByRole('button', { name: `Увеличить количество: ${RASPBERRY.name}` })
    .first()
    .click();
  await expect.poll(() => amount.inputValue()).toBe('0,2');
  await expect.poll(() => backendBasket(page)).toEqual({ [RASPBERRY.id]: 0.2 });

  await page.goto('/order');
  await page.getByRole('article', { name: RASPBERRY.name }).waitFor();
  await picturesLoaded(page);
  await page.getByRole('link', { name: 'Продолжить' }).click();
  await page.waitForURL((url) => url.pathname === '/commit');
  await page.getByRole('textbox', { name: /Телефон/ }).fill('+7 912 345 67 89');
  await page.getByRole('radio', { name: 'Самовывоз' }).check();
  await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await page.waitForURL((url) => url.pathname === '/order_status');
}

/** The newest order leads Заказы as Создан, at the shop's (Moscow) time. */
async function newestOrderShown(page: Page): Promise<void> {
  const order = page.getByTestId('order').first();
  await order.waitFor();
  expect(await order.getByTestId('order-status').textContent()).toBe('Создан');
  const created = await page.evaluate(async () => {
    const token = localStorage.getItem('jwt');
    const answer = await fetch('/api/catalog/order_history', {
      headers: {
        Accept: 'application/json',
        ...(token ? { Authorization: `Token ${token}` } : {}),
      },
    });
    const orders = (await answer.json()) as { created_ts: string }[];
    return (
      orders
        .map((item) => item.created_ts)
        .sort()
        .at(-1) ?? ''
    );
  });
  const inZone = (timeZone: string) =>
    new Intl.DateTimeFormat('ru-RU', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(created));
  const text = plain(await order.textContent());
  expect(text).toContain(inZone('Europe/Moscow'));
  expect(text).not.toContain(inZone('UTC'));
}

describe('in front of a plain DRF backend (the reference backend)', () => {
  test('an anonymous visitor buys: basket, checkout, the order; photos show; the backend sees the visitor', async () => {
    const page = await open('/');
    await picturesLoaded(page);
    await buyRaspberries(page);
    await newestOrderShown(page);
    await screenshot(page, 'django anonymous order 390');
    // Django's own log: the visitor's requests under the visitor's address, not the shop's.
    const log = django.logs();
    expect(log).toMatch(new RegExp(`${VISITOR.replaceAll('.', '\\.')} "PUT /api/catalog/basket/7`));
    expect(log).toMatch(
      new RegExp(`${VISITOR.replaceAll('.', '\\.')} "POST /api/catalog/order_commit`),
    );
    // Each line names the shop's request it served (X-Request-Id): the order's, its page's.
    expect(log).toMatch(/"POST \/api\/catalog\/order_commit[^"]*" 201 id=[0-9a-f]{32}\n/);
    expect(log).toMatch(/"GET \/api\/catalog\/basket[^"]*" 200 id=[0-9a-f]{32}\n/);
  });

  test('the demo user logs in and buys; the order joins their history', async () => {
    const page = await open('/login/');
    await page.getByLabel('Логин').fill('demo');
    await page.getByLabel('Пароль').fill('berries2026');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/order_status');
    await page.getByTestId('order').first().waitFor();
    const before = await page.getByTestId('order').count();
    expect(before).toBeGreaterThan(0);

    await buyRaspberries(page);
    await newestOrderShown(page);
    await expect.poll(() => page.getByTestId('order').count()).toBe(before + 1);
  });

  test('without JavaScript a visitor buys through the shop server, whose own calls pass Django’s CSRF check', async () => {
    const page = await openPage(browser(), `/product/${RASPBERRY.id}`, {
      baseURL: shop.url,
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'X-Forwarded-For': VISITOR },
    });
    const amount = page.getByRole('textbox', { name: 'Количество, кг' }).first();
    const press = async (name: string | RegExp) => {
      await page.locator('main').getByRole('button', { name }).first().click();
      await page.waitForURL((url) => url.pathname === `/product/${RASPBERRY.id}`);
    };
    await press('В корзину');
    await expect.poll(() => amount.inputValue()).toBe('0,1');
    await press(/^Увеличить количество/);
    await expect.poll(() => amount.inputValue()).toBe('0,2');

    await page.goto('/commit');
    await page.locator('input[name="phone"]').fill('89123456789');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.waitForURL((url) => url.pathname === '/order_status');
    const order = page.getByTestId('order').first();
    expect(await order.getByTestId('order-status').textContent()).toBe('Создан');
    expect(await page.getByTestId('order').count()).toBe(1);
    // The shop's server made these calls, for the visitor and under their address.
    const log = django.logs();
    const visitor = VISITOR.replaceAll('.', '\\.');
    expect(log).toMatch(new RegExp(`${visitor} "PUT /api/catalog/basket/7[^"]*" 200`));
    expect(log).toMatch(new RegExp(`${visitor} "POST /api/catalog/order_commit[^"]*" 20`));
  });
});
