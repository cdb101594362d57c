// Bad input (issue 8): script payloads in product names, in the order comment (and in server
// messages that echo it) and in search text must show as the text they are and never run; a
// pasted 10,000-character query must leave a short URL and a working page.
import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseUrl, control, openPage, type OpenPageOptions } from './browser.ts';
import {
  acceptCookies,
  browserOnCleanStub,
  clearFaults,
  SERVER_ERROR,
  serverBasket,
  setServerBasket,
} from './failures-helpers.ts';

const browser = browserOnCleanStub();

const XSS = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=1</script>',
  '"><svg onload=window.__xss=1>',
] as const;
const [IMG, SCRIPT, SVG] = XSS;
/** Products 7, 8 and 9 share section 15 («Малина и ежевика»). */
const RENAMED = [
  { id: 7, name: IMG },
  { id: 8, name: SCRIPT },
  { id: 9, name: SVG },
];
const NOTHING_FOUND = 'По вашему запросу не нашлось товаров';

async function open(path: string, options: OpenPageOptions = {}): Promise<Page> {
  const page = await openPage(browser(), path, options);
  await acceptCookies(page);
  return page;
}

/**
 * Nothing of a payload ran or became markup: no flag set, no element carrying an inline
 * handler, no `<img src=x>`, no script with the payload's code. Any handler would have had its
 * chance: an `<img src=x>` fails at once and the page has gone quiet.
 */
async function expectInert(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const found = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: unknown }).__xss,
    handlers: document.querySelectorAll('[onerror], [onload], img[src="x"]').length,
    // The page's embedded data (JSON, never run) may carry the text; no script that runs may.
    scripts: [...document.scripts].filter(
      (script) => !script.type.endsWith('json') && script.text.includes('__xss'),
    ).length,
  }));
  expect(found).toEqual({ flag: undefined, handlers: 0, scripts: 0 });
}

/** The payload shows on the page as plain text, character for character. */
async function expectLiteral(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor();
}

describe('script payloads as product names', () => {
  test('show as text on the section, product, search, basket and order pages', async () => {
    for (const product of RENAMED) await control('state', { product });
    const page = await open('/section/15');

    for (const { name } of RENAMED) await expectLiteral(page, name);
    await expectInert(page);

    await page.getByRole('link', { name: IMG, exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/product/7');
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.textContent()).toBe(IMG);
    await expect.poll(() => page.title()).toBe(`Ягодная лавка — ${IMG}`);
    await expectInert(page);

    await page.goto(`/search?q=${encodeURIComponent('onerror')}`);
    await page.getByTestId('product-card').getByText(IMG, { exact: true }).waitFor();
    await expectInert(page);

    await setServerBasket(page, { 7: 1, 8: 1, 9: 1 });
    await page.goto('/order');
    for (const { name } of RENAMED) {
      await page.getByRole('article', { name, exact: true }).waitFor();
      await expectLiteral(page, name);
    }
    await expectInert(page);

    await page.goto('/commit');
    const phone = page.getByRole('textbox', { name: 'Телефон' });
    await phone.click();
    await phone.pressSequentially('9123456789');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.waitForURL((url) => url.pathname === '/order_status');
    await page.getByTestId('order').first().click();
    for (const { name } of RENAMED) {
      await page.getByRole('table').getByRole('link', { name, exact: true }).waitFor();
    }
    await expectInert(page);
  });

  test('show as text inside a failure notice that names the product', async () => {
    await control('state', { product: RENAMED[0] });
    const page = await open('/policy', { allowConsoleErrors: [SERVER_ERROR.console] });
    await setServerBasket(page, { 7: 1 });
    await page.goto('/product/7');
    await control('faults', { path: '/api/catalog/basket/7', method: 'PUT', status: 500 });
    await page.getByRole('button', { name: `Увеличить количество: ${IMG}` }).click();
    const notice = page.locator('.mantine-Notification-root');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(`Не удалось изменить количество «${IMG}»`);
    await expectInert(page);
  });
});

describe('script payloads in the order comment', () => {
  test('stay text in the field, in server messages that echo them, and go out as typed', async () => {
    const page = await open('/policy', {
      allowConsoleErrors: [/^Failed to load resource: the server responded with a status of 400 /],
    });
    await setServerBasket(page, { 7: 1.5 });
    await page.goto('/commit');
    const phone = page.getByRole('textbox', { name: 'Телефон' });
    const comment = page.getByRole('textbox', { name: 'Комментарий к заказу' });
    await phone.click();
    await phone.pressSequentially('9123456789');
    await comment.fill(SCRIPT);
    await page.getByRole('radio', { name: 'Доставка курьером' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();

    // A backend that echoes hostile text back in its DRF messages.
    await control('faults', {
      path: '/api/catalog/order_commit',
      method: 'POST',
      status: 400,
      body: { comment: [IMG], non_field_errors: [SVG] },
    });
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await expectLiteral(page, IMG);
    await page.getByRole('alert').filter({ hasText: SVG }).waitFor();
    expect(await comment.inputValue()).toBe(SCRIPT);
    await expectInert(page);

    await clearFaults();
    const sent = page.waitForRequest((request: Request) =>
      request.url().endsWith('/api/catalog/order_commit'),
    );
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    expect(((await sent).postDataJSON() as { comment: string }).comment).toBe(SCRIPT);
    await page.waitForURL((url) => url.pathname === '/order_status');
    expect(await serverBasket(page)).toEqual({});
    await expectInert(page);
  });
});

describe('script payloads as search text', () => {
  for (const payload of XSS) {
    test(`${payload}: typed, it stays text in the field and the URL`, async () => {
      const page = await open('/search');
      const field = page.getByRole('textbox', { name: 'Поиск' });
      await field.fill(payload);
      await field.press('Enter');
      await page.getByText(NOTHING_FOUND, { exact: true }).waitFor();
      expect(await field.inputValue()).toBe(payload);
      expect(new URL(page.url()).searchParams.get('q')).toBe(payload);
      await expectInert(page);

      // The same query from the URL (a shared link, a reload).
      await page.reload();
      await page.getByText(NOTHING_FOUND, { exact: true }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Поиск' }).inputValue()).toBe(payload);
      await expectInert(page);
    });
  }

  test('from the home page search line, too', async () => {
    const page = await open('/');
    const line = page.getByRole('search').getByRole('searchbox', { name: 'Поиск' });
    await line.fill(SVG);
    await line.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search');
    expect(new URL(page.url()).searchParams.get('q')).toBe(SVG);
    await page.getByText(NOTHING_FOUND, { exact: true }).waitFor();
    await expectInert(page);
  });
});

describe('a search query of 10,000 characters', () => {
  const searched = (page: Page) => {
    const queries: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/catalog/') && url.pathname.endsWith('_search')) {
        queries.push(url.searchParams.get('q') ?? '');
      }
    });
    return queries;
  };

  test('pasted: the field, the URL and the request keep 100 characters; a reload works', async () => {
    const page = await open('/search');
    const queries = searched(page);
    const field = page.getByRole('textbox', { name: 'Поиск' });
    await field.focus();
    // Cyrillic: percent-encoded, 10,000 letters would be a 60 KB URL, far past a server's limit.
    await page.keyboard.insertText(`малина ${'ягода'.repeat(1999)}`);
    await page.keyboard.press('Enter');
    await page.getByText(NOTHING_FOUND, { exact: true }).waitFor();

    expect((await field.inputValue()).length).toBe(100);
    const q = new URL(page.url()).searchParams.get('q') ?? '';
    expect(q.length).toBe(100);
    expect(page.url().length).toBeLessThan(1000);
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) expect(query.length).toBeLessThanOrEqual(100);

    const reload = await page.reload();
    expect(reload?.status()).toBe(200);
    await page.getByText(NOTHING_FOUND, { exact: true }).waitFor();
    expect((await field.inputValue()).length).toBe(100);
  });

  test('in a link: the page opens, searches the first 100 characters and shows its answer', async () => {
    const long = `${'a'.repeat(9995)} malo`;
    const direct = await fetch(`${baseUrl()}/search?q=${long}`, {
      headers: { accept: 'text/html' },
    });
    expect(direct.status).toBe(200);
    const page = await open('/policy');
    const queries = searched(page);
    await page.goto(`/search?q=${long}`);
    await page.getByText(NOTHING_FOUND, { exact: true }).waitFor();
    expect((await page.getByRole('textbox', { name: 'Поиск' }).inputValue()).length).toBe(100);
    // The server searched the first 100 characters and sent the answer with the page.
    const embedded = JSON.parse((await page.locator('#page-data').textContent()) ?? '{}') as {
      answers: Record<string, unknown>;
    };
    expect(Object.keys(embedded.answers)).toEqual([`catalog/search?q=${'a'.repeat(100)}`]);
    for (const query of queries) expect(query).toBe('a'.repeat(100));
  });
});
