// A visitor's stray cookies never break the shop (issue 39): a sibling app's `city=Москва`, an
// analytics JSON, spaces, quotes, `=` in values, empty names and a hundred more. The production
// server in front of the stub, as deployed (API_TARGET: its own calls and the browser's /api):
// every census route and every form posted without JavaScript answers a visitor carrying them
// exactly as it answers the same visitor without them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultBackend, stubBackend } from './fault-backends.ts';
import { CENSUS_ROUTES } from './census-routes.ts';
import { type Instance, startShopProcess } from './nginx-recipe.ts';
import { type CookieJar, cookieHeader, keepCookies } from './visitor-cookies.ts';
import { STRAY_COOKIES } from '../host/stray-cookies.ts';

let backend: FaultBackend;
let shop: Instance;

beforeAll(async () => {
  backend = await stubBackend();
  shop = await startShopProcess({ env: { API_TARGET: backend.url } });
});

afterAll(async () => {
  await shop?.close();
  await backend?.close();
});

const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  'sec-fetch-site': 'same-origin',
};

/** A shopper of their own: a session and its CSRF token from the app's first call. */
async function newShopper(): Promise<CookieJar> {
  const jar: CookieJar = new Map();
  const first = await fetch(`${shop.url}/api/catalog/basket`);
  expect(first.status).toBe(200);
  keepCookies(jar, first);
  return jar;
}

/** The Cookie header of `jar`, with the stray cookies around it when `stray`. */
const cookiesOf = (jar: CookieJar, stray: boolean) =>
  stray ? `${STRAY_COOKIES}; ${cookieHeader(jar)}; ${STRAY_COOKIES}` : cookieHeader(jar);

/** Posts a form as a browser without JavaScript does; the answer's status, place and cookies. */
async function post(path: string, jar: CookieJar, stray: boolean, fields: Record<string, string>) {
  const answer = await fetch(`${shop.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, cookie: cookiesOf(jar, stray) },
    body: new URLSearchParams(fields).toString(),
  });
  await answer.arrayBuffer();
  keepCookies(jar, answer);
  const names = answer.headers.getSetCookie().map((line) => line.split('=', 1)[0]);
  return { status: answer.status, location: answer.headers.get('location'), cookies: names };
}

/** `value` with every object's keys in order: the page's answers are embedded as they came. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => [key, sorted(item)]),
  );
}

/**
 * A page's HTML, with what differs from one render to the next for anyone made alike: the
 * checkout's attempt key (new each time) and the order the embedded answers arrived in.
 */
async function page(path: string, cookie: string) {
  const answer = await fetch(`${shop.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  const html = (await answer.text())
    .replace(/name="idempotency_key" value="[^"]*"/, 'name="idempotency_key"')
    .replace(
      /(<script id="page-data" type="application\/json">)(.*?)(<\/script>)/s,
      (_, open: string, data: string, close: string) =>
        open + JSON.stringify(sorted(JSON.parse(data))) + close,
    );
  return { status: answer.status, location: answer.headers.get('location'), html };
}

describe('stray cookies', () => {
  it('every census route shows a shopper with a basket exactly as without them', async () => {
    const jar = await newShopper();
    expect(
      (await post('/basket', jar, false, { product: '7', change: 'add', back: '/' })).status,
    ).toBe(303);
    for (const path of CENSUS_ROUTES) {
      const clean = await page(path, cookiesOf(jar, false));
      const stray = await page(path, cookiesOf(jar, true));
      expect(stray.status, path).toBe(clean.status);
      expect(stray.location, path).toBe(clean.location);
      expect(stray.html, path).toBe(clean.html);
    }
    // The basket's line shows on the pages that show it: they rendered the visitor's own basket.
    const order = await page('/order', cookiesOf(jar, true));
    expect(order.html).toContain('value="0,1"');
    expect(order.html).not.toMatch(/Не удалось|нет связи/);
  });

  it('the browser’s /api calls carry them to the shop and still change the basket', async () => {
    const jar = await newShopper();
    const put = await fetch(`${shop.url}/api/catalog/basket/4`, {
      method: 'PUT',
      headers: {
        cookie: cookiesOf(jar, true),
        'content-type': 'application/json',
        'x-csrftoken': jar.get('csrftoken') ?? '',
      },
      body: JSON.stringify({ amount: 2 }),
    });
    expect(put.status).toBe(200);
    const basket = await fetch(`${shop.url}/api/catalog/basket`, {
      headers: { cookie: cookiesOf(jar, true) },
    });
    expect(await basket.json()).toMatchObject({ '4': { amount: 2 } });
  });

  it('every form posted without JavaScript answers as it does for a clean visitor, and does what it says', async () => {
    const outcomes: Record<string, unknown>[] = [];
    for (const stray of [false, true]) {
      const jar = await newShopper();
      const added = await post('/basket', jar, stray, { product: '4', change: 'add', back: '/' });
      const basket = await fetch(`${shop.url}/api/catalog/basket`, {
        headers: { cookie: cookieHeader(jar) },
      });
      const lines = (await basket.json()) as Record<string, { amount: number }>;
      const commitPage = await page('/commit', cookiesOf(jar, stray));
      const key = /name="idempotency_key" value="([^"]+)"/.exec(
        await (
          await fetch(`${shop.url}/commit`, { headers: { cookie: cookieHeader(jar) } })
        ).text(),
      )?.[1];
      const committed = await post('/commit', jar, stray, {
        phone: '9123456789',
        delivery: '2',
        policy_accept: 'on',
        idempotency_key: key ?? '',
      });
      const history = await fetch(`${shop.url}/api/catalog/order_history`, {
        headers: { cookie: cookieHeader(jar) },
      });
      const login = await post('/login/?next_page=/order_status', jar, stray, {
        username: 'demo',
        password: 'berries2026',
      });
      const consent = await post('/cookie-consent', jar, stray, { back: '/catalog' });
      const theme = await post('/theme', jar, stray, { back: '/catalog' });
      outcomes.push({
        added,
        amount: lines['4']?.amount,
        commitPage: commitPage.status,
        committed,
        orders: ((await history.json()) as unknown[]).length,
        login,
        loggedIn: jar.has('jwt'),
        consent,
        theme,
      });
    }
    const [clean, stray] = outcomes;
    expect(clean).toMatchObject({
      added: { status: 303, location: '/' },
      amount: 1,
      committed: { status: 303, location: '/order_status' },
      orders: 1,
      login: { status: 303, location: '/order_status' },
      loggedIn: true,
    });
    expect(stray).toEqual(clean);
  });
});
