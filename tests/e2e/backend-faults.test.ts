// The shop in front of a backend that stalls or goes down (issue 24): every form still answers,
// with a message that says what may have happened, and the stalled calls are ended; during an
// outage the catalogue is still there, and the basket and checkout say ordering must wait.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import { basketUnavailable } from '../../src/features/basket/BasketPage.tsx';
import { checkoutUnavailable } from '../../src/features/checkout/CommitPage.tsx';
import { BASKET_LATE } from '../../src/server-entry/basket-form.ts';
import { ORDER_LATE } from '../../src/server-entry/commit-form.ts';
import { LOGIN_LATE } from '../../src/server-entry/login-form.ts';
import {
  type DyingBackend,
  dyingBackend,
  type FaultBackend,
  stubBackend,
} from './fault-backends.ts';
import { submit } from './failures-helpers.ts';
import { openPage, screenshot, setupBrowser } from './browser.ts';

const browser = setupBrowser();

let stub: FaultBackend;
let backend: DyingBackend;
let shop: RunningShop;
let imageDir: string;

beforeEach(async () => {
  stub = await stubBackend();
  backend = await dyingBackend(stub.url);
  imageDir = await mkdtemp(path.join(os.tmpdir(), 'berries-faults-images-'));
  shop = await startShopServer({
    port: 0,
    apiTarget: backend.url,
    // Generous for a healthy backend on a busy machine; a stalled one is cut at these.
    dataTimeoutMs: 5_000,
    formTimeoutMs: 3_000,
    images: { cacheDir: imageDir },
  });
});

afterEach(async () => {
  await shop.close();
  await backend.close();
  await stub.close();
  await rm(imageDir, { recursive: true, force: true });
});

/** A phone without JavaScript (or before the app's code has come), on this test's shop. */
const phoneWithoutApp = (pathname: string) =>
  openPage(browser(), pathname, {
    baseURL: shop.url,
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });

describe('a backend that stops answering', () => {
  test('every form answers with its message, what was typed stays, and the stalled calls are ended', async () => {
    // Healthy first: a line in the basket, and the checkout form filled in.
    const page = await phoneWithoutApp('/product/7');
    expect(await submit(page, 'В корзину', '/basket')).toBe(303);
    await page.goto('/commit');
    await page.locator('input[name="phone"]').fill('+7(912)345-67-89');
    await page.getByLabel('Комментарий к заказу').fill('Позвоните за час');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();

    backend.stall();
    // Checkout: the order was not sent (the basket never came), and the form is as typed.
    expect(await submit(page, 'Подтвердить', '/commit')).toBe(200);
    await page.getByText(ORDER_LATE).waitFor();
    expect(await page.locator('input[name="phone"]').inputValue()).toBe('+7(912)-345-67-89');
    expect(await page.getByLabel('Комментарий к заказу').inputValue()).toBe('Позвоните за час');
    expect(await page.getByRole('radio', { name: 'Самовывоз' }).isChecked()).toBe(true);
    await screenshot(page, 'backend stalled checkout 390');

    // The basket: the product from the shop's last good answers, its line unknown meanwhile;
    // the form goes back to it with the message that nothing changed.
    await page.goto('/product/7');
    expect(await submit(page, 'В корзину', '/basket')).toBe(303);
    await page.getByText(BASKET_LATE).waitFor();
    expect(new URL(page.url()).pathname).toBe('/product/7');
    await screenshot(page, 'backend stalled basket 390');

    // Login: the login kept, the message, no token.
    await page.goto('/login/');
    await page.getByLabel('Логин').fill('demo');
    await page.getByLabel('Пароль').fill('berries2026');
    expect(await submit(page, 'Войти', '/login/')).toBe(200);
    await page.getByText(LOGIN_LATE).waitFor();
    expect(await page.getByLabel('Логин').inputValue()).toBe('demo');
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'jwt')).toBe(false);

    // Every call the backend was left holding has been ended by the shop.
    await expect.poll(() => backend.held()).toBe(0);
  });
});

describe('a backend that goes down after the catalogue was seen', () => {
  const PAGES = [
    { path: '/', shows: 'Сезонные хиты' },
    { path: '/catalog', shows: 'Замороженные ягоды' },
    { path: '/section/1', shows: 'Садовые ягоды' },
    { path: '/product/7', shows: 'Малина' },
    { path: '/search?q=малина', shows: 'Малина жёлтая' },
  ];

  test('the catalogue stays browsable, and the basket and checkout say ordering must wait', async () => {
    const page = await openPage(browser(), '/product/7', {
      baseURL: shop.url,
      // The browser logs the proxy's 502s for the calls the app makes once the backend is down.
      allowConsoleErrors: [
        /^Failed to load resource: the server responded with a status of 50[234]/,
      ],
    });
    await page.locator('main').getByRole('button', { name: 'В корзину' }).first().click();
    await page.getByRole('link', { name: /^Корзина на сумму/ }).waitFor();
    for (const { path: pathname } of PAGES) await page.goto(pathname);

    await backend.kill();
    // Without the app, as a crawler or a slow phone's first seconds see them.
    for (const { path: pathname, shows } of PAGES) {
      const answer = await fetch(new URL(pathname, shop.url));
      expect(answer.status, pathname).toBe(200);
      expect(await answer.text(), pathname).toContain(shows);
    }
    // With the app: a tap from the home page to a product the shop has seen.
    await page.goto('/');
    await page.locator('main').getByRole('link', { name: 'Малина', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Малина' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/product/7');

    await page.goto('/order');
    await page.getByText(basketUnavailable('unreachable')).waitFor();
    await page.goto('/commit');
    await page.getByText(checkoutUnavailable('unreachable')).waitFor();
    expect(await page.getByRole('button', { name: 'Подтвердить' }).count()).toBe(0);
    await screenshot(page, 'backend down checkout');
  });
});
