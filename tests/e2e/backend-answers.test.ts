// The shop in front of a backend that answers wrongly (issue 30): HTML with a 200, JSON of another
// shape, a redirect to another host, an answer over the size cap. Each is a failed call: a page
// shows the last good answer or its "not loaded" state, never a 500, the other host is never
// asked, and nothing of it is kept, so a later outage still shows the good catalogue. A checkout
// whose order_commit is redirected is not sent again elsewhere, nor told it was placed.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type RunningShop, startShopServer } from '../../host/app.ts';
import { BACKEND_ODD } from '../../host/backend-proxy.ts';
import {
  elsewhereBackend,
  type FaultBackend,
  stubBackend,
  type Twist,
  type TwistedBackend,
  twistedBackend,
} from './fault-backends.ts';
import { submit } from './failures-helpers.ts';
import { openPage, setupBrowser } from './browser.ts';

const browser = setupBrowser();

/** The cap, small here so that the old code's rendering of what passes it stays quick. */
const MAX_ANSWER_BYTES = 64 * 1024;
const NOT_LOADED = 'Не удалось загрузить данные';

let stub: FaultBackend;
let elsewhere: Awaited<ReturnType<typeof elsewhereBackend>>;
let backend: TwistedBackend;
let shop: RunningShop;
let imageDir: string;

beforeEach(async () => {
  stub = await stubBackend();
  elsewhere = await elsewhereBackend();
  backend = await twistedBackend(stub.url, elsewhere.url, 4 * MAX_ANSWER_BYTES);
  imageDir = await mkdtemp(path.join(os.tmpdir(), 'berries-answers-images-'));
  shop = await startShopServer({
    port: 0,
    apiTarget: backend.url,
    dataTimeoutMs: 5_000,
    formTimeoutMs: 5_000,
    backendMaxAnswerBytes: MAX_ANSWER_BYTES,
    // Every view asks the backend: the odd answer is the one the page gets.
    publicAnswers: { freshMs: 0 },
    images: { cacheDir: imageDir },
  });
});

afterEach(async () => {
  await shop.close();
  await backend.close();
  await elsewhere.close();
  await stub.close();
  await rm(imageDir, { recursive: true, force: true });
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
    // The browser's own calls get the shop's JSON error; JSON of another shape is JSON, and
    // /api passes it (the browser's client does not check shapes).
    const call = await fetch(new URL('/api/catalog/section_root', shop.url));
    expect(call.headers.get('x-content-type-options')).toBe('nosniff');
    if (twist === 'shape') {
      expect(call.status).toBe(200);
    } else {
      expect(call.status).toBe(502);
      expect(await call.json()).toEqual({ detail: BACKEND_ODD });
    }

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
    await page.getByText('Не удалось отправить заказ').waitFor();
    expect(await page.locator('input[name="phone"]').inputValue()).toBe('+7(912)-345-67-89');
    expect(elsewhere.asked).toEqual([]);
  });
});
