// The shop in front of a backend that answers wrongly (issue 30): HTML with a 200, JSON of another
// shape, a redirect to another host, an answer over the size cap. Each is a failed call: a page
// shows the last good answer or its "not loaded" state, never a 500, the other host is never
// asked, and nothing of it is kept, so a later outage still shows the good catalogue. A checkout
// whose order_commit is redirected is not sent again elsewhere, nor told it was placed.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BACKEND_ODD } from '../../host/backend/backend-proxy.ts';
import type { Twist } from './fault-backends.ts';
import { submit } from './failures-helpers.ts';
import { openPage, setupBrowser } from './browser.ts';
import { type TwistedShop, twistedShop } from './twisted-shop.ts';

const browser = setupBrowser();

/** The cap, small here so that the old code's rendering of what passes it stays quick. */
const MAX_ANSWER_BYTES = 64 * 1024;
const NOT_LOADED = 'Не удалось загрузить данные';

let twisted: TwistedShop;
let shop: TwistedShop['shop'];
let backend: TwistedShop['backend'];
let elsewhere: TwistedShop['elsewhere'];

beforeEach(async () => {
  twisted = await twistedShop({
    hugeBytes: 4 * MAX_ANSWER_BYTES,
    dataTimeoutMs: 5_000,
    formTimeoutMs: 5_000,
    backendMaxAnswerBytes: MAX_ANSWER_BYTES,
    // Every view asks the backend: the odd answer is the one the page gets.
    publicAnswers: { freshMs: 0 },
  });
  ({ shop, backend, elsewhere } = twisted);
});

afterEach(async () => {
  await twisted.close();
});

async function view(pathname: string): Promise<{ status: number; html: string }> {
  const answer = await fetch(new URL(pathname, shop.url));
  return { status: answer.status, html: await answer.text() };
}

describe.each<Twist>(['html', 'shape', 'redirect', 'huge'])('a backend answering %s', (twist) => {
  test('pages show the last good answer or "not loaded", never a 500, and nothing of it is kept', async () => {
    const good = await view('/catalog');
    expect(good.status).toBe(200);
    expect(good.html).toContain('Замороженные ягоды');

    backend.twist(twist, (req) => req.method === 'GET');
    // A page seen before: its last good answer stands in.
    const seen = await view('/catalog');
    expect(seen.status).toBe(200);
    expect(seen.html).toContain('Замороженные ягоды');
    expect(seen.html).not.toContain('Чужой товар');
    // A page never seen: its "not loaded" state, with `Повторить`.
    const unseen = await view('/section/1');
    expect(unseen.status).toBe(200);
    expect(unseen.html).toContain(NOT_LOADED);
    // The browser's own calls get the shop's JSON error, JSON of another shape too (/api checks
    // it as the server's calls do), with the outcome named for the app's message.
    const call = await fetch(new URL('/api/catalog/section_root', shop.url));
    expect(call.headers.get('x-content-type-options')).toBe('nosniff');
    expect(call.status).toBe(502);
    expect(await call.json()).toEqual({ detail: BACKEND_ODD });
    const outcomes = {
      html: 'bad_shape',
      shape: 'bad_shape',
      redirect: 'redirect',
      huge: 'too_big',
    };
    expect(call.headers.get('x-backend-outcome')).toBe(outcomes[twist as keyof typeof outcomes]);

    // An outage afterwards: the catalogue is still the good one, nothing odd was kept.
    await backend.kill();
    const later = await view('/catalog');
    expect(later.status).toBe(200);
    expect(later.html).toContain('Замороженные ягоды');
    expect(elsewhere.asked).toEqual([]);
  });
});

describe('a checkout whose order_commit is redirected to another host (307)', () => {
  test('the order is not sent there, and the shopper is not told it was placed', async () => {
    const page = await openPage(browser(), '/product/7', {
      baseURL: shop.url,
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    expect(await submit(page, 'В корзину', '/basket')).toBe(303);
    await page.goto('/commit');
    await page.locator('input[name="phone"]').fill('+7(912)345-67-89');
    await page.getByRole('radio', { name: 'Самовывоз' }).check();
    await page.getByRole('checkbox', { name: /политикой конфиденциальности/ }).check();

    backend.twist('redirect', (req) => req.url === '/api/catalog/order_commit');
    expect(await submit(page, 'Подтвердить', '/commit')).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/commit');
    // The shop cannot tell what the answer meant: it says to look at the orders first.
    await page.getByText('Не удалось подтвердить заказ').waitFor();
    await page.getByText('проверьте раздел «Заказы», прежде чем отправлять ещё раз').waitFor();
    expect(await page.locator('input[name="phone"]').inputValue()).toBe('+7(912)-345-67-89');
    expect(elsewhere.asked).toEqual([]);
  });
});
