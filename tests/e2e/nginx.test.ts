// deploy/nginx.conf as written, run by Debian's nginx in front of two instances of the shop's
// server, two processes as in production (tests/e2e/nginx-recipe.ts), which take their data from
// one stub backend (as two instances share one Django).
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertClean, openPage, setupBrowser } from './browser.ts';
import { type StubRecipe, startShopProcess, startStubRecipe } from './nginx-recipe.ts';
import { visitorWithBasket } from './visitor-cookies.ts';

const browser = setupBrowser();

/** The product page's amount field with 7's line in it (0,1 kg), which only its visitor sees. */
const AMOUNT_OF_7 =
  /aria-label="Количество[^"]*"[^>]*value="0,1"|value="0,1"[^>]*aria-label="Количество/;
/** An answer from nginx's cache: fresh, or stale while renewed. */
const FROM_CACHE = /^(HIT|STALE|UPDATING)$/;
/** The amount field a product page shows in place of В корзину for a product in the basket. */
const AMOUNT_FIELD = 'name="amount"';
const NOTICE = 'Мы используем файлы cookie';

let recipe: StubRecipe | undefined;
let front = '';
let shops: StubRecipe['shops'];

beforeAll(async () => {
  recipe = await startStubRecipe();
  ({ url: front, shops } = recipe);
});

afterAll(async () => {
  // Instances restarted by a test are this file's own processes, not the recipe's.
  await Promise.all((shops ?? []).map((shop) => shop.close()));
  await recipe?.close();
});

/** Sends `raw` to nginx as it is, and reads its answer until nginx closes the connection. */
async function sendRaw(raw: string): Promise<string> {
  const socket = connect(Number(new URL(front).port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  socket.write(raw, 'latin1');
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('latin1');
}

/** A picture's format, by its first bytes: jpeg, webp, avif, or what they are. */
function formatOf(bytes: Buffer): string {
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg';
  if (bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 4, 12) === 'ftypavif') return 'avif';
  return bytes.toString('latin1', 0, 12);
}

/** The statuses of GETs of `paths` through nginx, at once; a request that failed is 0. */
function statuses(paths: string[], headers: Record<string, string> = {}): Promise<number[]> {
  return Promise.all(
    paths.map((path) =>
      fetch(`${front}${path}`, { headers }).then(
        async (answer) => {
          await answer.arrayBuffer();
          return answer.status;
        },
        () => 0,
      ),
    ),
  );
}

describe('deploy/nginx.conf in front of two instances', () => {
  test('a product page through nginx has its name, price and OpenGraph tags', async () => {
    const response = await fetch(`${front}/product/7`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/890\s₽ \/ кг/);
    // The instance builds absolute addresses from the host nginx passed on.
    expect(html).toContain(`<meta property="og:url" content="${front}/product/7" />`);
  });

  test('nginx serves the build’s assets from disk, brotli and gzip, cached for a year', async () => {
    const html = await (await fetch(`${front}/`)).text();
    const script =
      /data-scripts="[^"]*&quot;(\/assets\/index-[^&]+\.js)&quot;\]"/.exec(html)?.[1] ?? '';
    const br = await fetch(front + script, { headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Not an instance's answer: those carry the shop's Content-Security-Policy.
    expect(br.headers.get('content-security-policy')).toBeNull();
    const gz = await fetch(front + script, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  test('a resized photo comes from an instance once, then from nginx’s cache, per format', async () => {
    const url = `${front}/img/v1/320/catalog/product-7.jpg`;
    const get = async (accept: string) => {
      const response = await fetch(url, { headers: { Accept: accept } });
      expect(response.status).toBe(200);
      return {
        cache: response.headers.get('x-cache-status'),
        type: response.headers.get('content-type'),
        body: Buffer.from(await response.arrayBuffer()),
      };
    };
    const avif = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
    const first = await get(avif);
    expect(first).toMatchObject({ cache: 'MISS', type: 'image/avif' });
    const second = await get(avif);
    expect(second).toMatchObject({ cache: 'HIT', type: 'image/avif' });
    expect(second.body.equals(first.body)).toBe(true);
    // Another browser's Accept that chooses the same format shares the entry...
    expect(await get('image/avif,*/*')).toMatchObject({ cache: 'HIT', type: 'image/avif' });
    // ...one that refuses AVIF never gets it from the cache.
    expect(await get('image/webp,*/*')).toMatchObject({ cache: 'MISS', type: 'image/webp' });
    expect(await get('image/avif;q=0,image/webp')).toMatchObject({
      cache: 'HIT',
      type: 'image/webp',
    });
    expect(await get('image/*')).toMatchObject({ cache: 'MISS', type: 'image/jpeg' });
  });

  test('a picture’s format is what its key says: after repeated, conflicting or odd Accept headers, each browser gets its own', async () => {
    /** GET of `path` with one Accept line per item of `accept` (none for an empty list). */
    const picture = (path: string, accept: string[]) =>
      new Promise<{ type: string; format: string; status: number }>((resolve, reject) => {
        const outgoing = request(`${front}${path}`, { agent: false }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () =>
            resolve({
              status: answer.statusCode ?? 0,
              type: answer.headers['content-type'] ?? '',
              format: formatOf(Buffer.concat(chunks)),
            }),
          );
        });
        if (accept.length > 0) outgoing.setHeader('Accept', accept);
        outgoing.on('error', reject);
        outgoing.end();
      });
    // Real browsers' Accept for pictures: Safari before AVIF, Firefox before AVIF, Chromium.
    const browsers = {
      jpeg: ['image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5'],
      webp: ['image/webp,*/*'],
      avif: ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'],
    };
    const first: string[][] = [
      ['image/jpeg', 'image/avif'],
      ['image/webp', 'image/avif'],
      ['image/avif;q=0, image/avif;q=1'],
      ['image/avifx, image/webp2, x-image/avif'],
      ['IMAGE/AVIF;Q=0.5'],
      ['image/avif;q=0;x=1, image/webp;q=0.000'],
    ];
    const photos = [2, 4, 11, 16, 17, 20];
    for (const [index, accept] of first.entries()) {
      const path = `/img/v1/160/catalog/product-${photos[index]}.jpg`;
      // Whatever the first request carried, it filled the key of the format it got.
      const filler = await picture(path, accept);
      expect(filler.status, accept.join(' + ')).toBe(200);
      expect(filler.type, accept.join(' + ')).toBe(`image/${filler.format}`);
      for (const [format, browserAccept] of Object.entries(browsers)) {
        const got = await picture(path, browserAccept);
        expect({ accept, format: got.format, type: got.type }).toEqual({
          accept,
          format,
          type: `image/${format}`,
        });
      }
    }
  });

  test('a basket change in Chromium goes through nginx, and survives a reload', async () => {
    const page = await openPage(browser(), `${front}/product/7`);
    await page.getByRole('button', { name: 'В корзину' }).click();
    const amount = page.getByRole('textbox', { name: /Количество/ });
    await expect.poll(() => amount.inputValue()).toBe('0,1');
    await page.reload();
    await expect
      .poll(() => page.getByRole('textbox', { name: /Количество/ }).inputValue())
      .toBe('0,1');
    assertClean(page);
  });

  test('one checkout form posted to both instances at once places exactly one order', async () => {
    // A shopper with a basket, through nginx, as the browser would be.
    const cookie = await visitorWithBasket(front, ['4']);
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };
    const page = await (await fetch(`${front}/commit`, { headers: { cookie } })).text();
    const key = /name="idempotency_key" value="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const fields = {
      phone: '9123456789',
      delivery: '2',
      policy_accept: 'on',
      idempotency_key: key,
    };
    // A double click whose two posts nginx sent to different instances.
    const answers = await Promise.all(
      shops.map((shop) =>
        fetch(`http://127.0.0.1:${shop.port}/commit`, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...form, 'sec-fetch-site': 'same-origin' },
          body: new URLSearchParams(fields).toString(),
        }),
      ),
    );
    // Whichever answer the browser shows is the order placed, never "nothing to order".
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/order_status');
    }
    const orders = await fetch(`${front}/api/catalog/order_history`, { headers: { cookie } });
    expect(await orders.json()).toHaveLength(1);
  });

  test('a newcomer’s catalogue page is kept by nginx: the next newcomer gets the same bytes', async () => {
    const first = await fetch(`${front}/section/14`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    expect(first.headers.get('set-cookie')).toBeNull();
    // What it varies on goes on to browsers and CDNs, from nginx's copy too (nginx keys on the
    // few cookies that matter itself).
    expect(first.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    const kept = await first.text();
    // Cookies a newcomer picks up as the app starts (the session, the CSRF token) change nothing.
    const second = await fetch(`${front}/section/14`, {
      headers: { cookie: 'sessionid=abc; csrftoken=def' },
    });
    expect(second.headers.get('x-cache-status')).toBe('HIT');
    expect(second.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    expect(await second.text()).toBe(kept);
  });

  test('a browser asks again each time, and nginx answers from its copy with a 304 when the page is the same', async () => {
    const first = await fetch(`${front}/section/10`);
    expect(first.status).toBe(200);
    const page = await first.text();
    // The browser's rule (ask before each use) and nginx's lifetime, in the one header nginx reads.
    expect(first.headers.get('cache-control')).toBe(
      'public, max-age=0, must-revalidate, s-maxage=60',
    );
    // A CDN's lifetime and stale windows, in the header only a CDN reads (RFC 9213).
    expect(first.headers.get('cdn-cache-control')).toBe(
      'max-age=60, stale-while-revalidate=600, stale-if-error=86400',
    );
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await fetch(`${front}/section/10`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-cache-status')).toMatch(FROM_CACHE);
    expect(await again.text()).toBe('');
    // Another theme is another page: the whole of it.
    const dark = await fetch(`${front}/section/10`, {
      headers: { 'if-none-match': etag, cookie: 'theme=dark' },
    });
    expect(dark.status).toBe(200);
    expect(await dark.text()).not.toBe(page);
  });

  test('a visitor with a basket sees their amounts through nginx; a newcomer after them never does', async () => {
    const newcomerPage = async () => {
      const response = await fetch(`${front}/product/7`);
      return { cache: response.headers.get('x-cache-status'), html: await response.text() };
    };
    // A newcomer's copy is in the cache before the visitor comes.
    expect((await newcomerPage()).cache).toMatch(/^(MISS|EXPIRED|HIT|STALE|UPDATING)$/);
    const visitor = await visitorWithBasket(front, ['7', '4']);
    const own = await fetch(`${front}/product/7`, { headers: { cookie: visitor } });
    expect(await own.text()).toMatch(AMOUNT_OF_7);
    expect(own.headers.get('x-cache-status')).toBe('BYPASS');
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    const after = await newcomerPage();
    expect(after.cache).toMatch(FROM_CACHE);
    expect(after.html).not.toMatch(AMOUNT_OF_7);
    expect(after.html).toContain('В корзину');

    // A page the visitor asks first is not kept for the newcomer who comes next.
    const first = await fetch(`${front}/product/4`, { headers: { cookie: visitor } });
    expect(first.headers.get('x-cache-status')).toBe('BYPASS');
    expect(await first.text()).toContain(AMOUNT_FIELD);
    const next = await fetch(`${front}/product/4`);
    expect(next.headers.get('x-cache-status')).toBe('MISS');
    expect(await next.text()).not.toContain(AMOUNT_FIELD);
  });

  test('without JavaScript, В корзину on a kept page puts the product in the basket, and only that shopper sees it', async () => {
    const kept = await fetch(`${front}/product/17`);
    await kept.arrayBuffer();
    const shopper = await openPage(browser(), `${front}/product/17`, { javaScriptEnabled: false });
    const posted = shopper.waitForResponse((answer) => answer.request().method() === 'POST');
    await shopper.getByRole('button', { name: 'В корзину' }).click();
    expect((await posted).status()).toBe(303);
    await shopper.waitForLoadState();
    expect(await shopper.getByRole('textbox', { name: /Количество/ }).inputValue()).toBe('1');
    const newcomer = await openPage(browser(), `${front}/product/17`, { javaScriptEnabled: false });
    expect(await newcomer.getByRole('textbox', { name: /Количество/ }).count()).toBe(0);
    expect(await newcomer.getByRole('button', { name: 'В корзину' }).count()).toBe(1);
    assertClean(shopper);
    assertClean(newcomer);
  });

  test('a shared copy keeps each visitor’s theme and cookie notice', async () => {
    const get = async (cookie: string) => {
      const response = await fetch(`${front}/catalog`, { headers: { cookie } });
      return { cache: response.headers.get('x-cache-status'), html: await response.text() };
    };
    const light = await get('');
    const dark = await get('theme=dark');
    expect(dark.cache).toBe('MISS');
    expect(dark.html).toContain('data-mantine-color-scheme="dark"');
    expect(light.html).toContain('data-mantine-color-scheme="light"');
    expect((await get('theme=dark; sessionid=x')).cache).toBe('HIT');
    // nginx's key and the instances read the theme and the notice alike: whatever a request
    // sends, the copy it leaves (on an address nobody asked for yet) is the variant its key says.
    const odd = [
      'theme=sepia',
      'Theme=dark',
      'theme=DARK',
      'theme=light; theme=dark',
      'theme=%64ark',
      'theme="dark"',
      'cookieAccepted=TRUE',
      'CookieAccepted=true',
      'cookieAccepted=%74rue',
      'cookieAccepted=false; cookieAccepted=true',
      // Whitespace that is one in JavaScript only, or in both.
      'x=1;\u00a0theme=dark',
      'x=1;\u00a0cookieAccepted=true',
      '\u00a0theme=dark',
      'x=1;\ttheme=dark',
      'x=1;\t cookieAccepted=true',
      'theme=dark\u00a0',
      'x=1,theme=dark',
      'theme=dark, cookieAccepted=true',
      'x=1; theme=light; theme=dark',
      'x=1; cookieAccepted=false;  cookieAccepted=true',
    ];
    for (const [index, cookie] of odd.entries()) {
      const fresh = `/catalog?odd=${index}`;
      await fetch(`${front}${fresh}`, { headers: { cookie } }).then((answer) => answer.text());
      for (const [variant, shows] of [
        ['', ['data-mantine-color-scheme="light"', NOTICE]],
        ['theme=dark', ['data-mantine-color-scheme="dark"', NOTICE]],
        ['cookieAccepted=true', ['data-mantine-color-scheme="light"']],
      ] as const) {
        const html = await (
          await fetch(`${front}${fresh}`, { headers: { cookie: variant } })
        ).text();
        for (const part of shows) expect(html, `${cookie} then ${variant}`).toContain(part);
        if (variant === 'cookieAccepted=true') expect(html, cookie).not.toContain(NOTICE);
      }
    }
    expect((await get('a=1;theme=dark')).html).toContain('data-mantine-color-scheme="dark"');
    expect(light.html).toContain(NOTICE);
    const accepted = await get('cookieAccepted=true');
    expect(accepted.html).not.toContain(NOTICE);
    expect((await get('')).html).toContain(NOTICE);
    expect((await get('theme=dark')).html).toContain('data-mantine-color-scheme="dark"');
  });

  test('a long address (3 to 8 KB of query) is answered and kept, with no line in the error log', async () => {
    const before = await recipe!.errorLog();
    for (const length of [3000, 4500, 8000]) {
      const path = `/catalog?utm_content=${'x'.repeat(length)}`;
      const first = await fetch(`${front}${path}`);
      expect(first.status, String(length)).toBe(200);
      expect(first.headers.get('x-cache-status'), String(length)).toBe('MISS');
      await first.arrayBuffer();
      const second = await fetch(`${front}${path}`);
      expect(second.headers.get('x-cache-status'), String(length)).toBe('HIT');
      await second.arrayBuffer();
    }
    expect(await recipe!.errorLog()).toBe(before);
  });

  test('a logged-in visitor’s page and a form’s message are never kept', async () => {
    for (const cookie of ['jwt=token', 'notice=%D0%93%D0%BE%D1%82%D0%BE%D0%B2%D0%BE']) {
      const response = await fetch(`${front}/news`, { headers: { cookie } });
      expect(response.headers.get('x-cache-status')).toBe('BYPASS');
      expect(response.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await fetch(`${front}/news`)).headers.get('x-cache-status')).toBe('MISS');
  });

  test('a request with a control byte in a header, or three 7 KB headers, gets its own 400 or 431, and nobody else a 502', async () => {
    const api = Array.from({ length: 20 }, () => '/api/catalog/section');
    // nginx holds kept-alive connections to both instances, as under any load.
    expect(await statuses(api)).toEqual(api.map(() => 200));
    const bad: [header: string, status: number][] = [
      ...['\u0001', '\u001f', '\u007f'].flatMap((byte): [string, number][] => [
        [`X-Note: a${byte}b`, 400],
        [`Cookie: sessionid=a${byte}b`, 400],
      ]),
      [[1, 2, 3].map((n) => `X-Big-${n}: ${'b'.repeat(7000)}`).join('\r\n'), 431],
    ];
    for (const path of ['/api/catalog/section', '/catalog?bad=1']) {
      for (const [header, status] of bad) {
        const answer = await sendRaw(
          `GET ${path} HTTP/1.1\r\nHost: shop\r\n${header}\r\nConnection: close\r\n\r\n`,
        );
        expect(answer, header.slice(0, 30)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        // The instance's own answer, with the shop's headers, not nginx's 502.
        expect(answer).toMatch(/^X-Content-Type-Options: nosniff$/m);
      }
    }
    // Everyone else, right after: the API, pages nobody kept yet, a visitor with a basket.
    const pages = Array.from({ length: 10 }, (_, i) => `/catalog?after-bad=${i}`);
    expect(await statuses([...api, ...pages])).toEqual([...api, ...pages].map(() => 200));
    const basket = await visitorWithBasket(front, ['4']);
    expect(await statuses(['/product/4', '/order'], { cookie: basket })).toEqual([200, 200]);
  });

  test('a rolling restart of both instances under load loses no request', async () => {
    const basket = await visitorWithBasket(front, ['7']);
    // A POST among them (the basket form without JavaScript): nginx never sends one again once
    // it reached an instance, so an instance that ends a connection nginx is sending it on loses it.
    const basketForm = {
      method: 'POST',
      headers: {
        cookie: basket,
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ product: '7', change: 'set', amount: '2', back: '/' }).toString(),
    };
    const load: { path: string; init: RequestInit; ok: number }[] = [
      { path: '/api/catalog/section', init: {}, ok: 200 },
      { path: '/api/catalog/product_retrieve/7', init: {}, ok: 200 },
      { path: '/product/7', init: { headers: { cookie: basket } }, ok: 200 },
      { path: '/basket', init: { ...basketForm, redirect: 'manual' }, ok: 303 },
      { path: '/order', init: { headers: { cookie: basket } }, ok: 200 },
    ];
    const failed: string[] = [];
    let done = 0;
    let running = true;
    // Waiters for the load to have made `count` more requests.
    const waiting: { until: number; resolve: () => void }[] = [];
    const loop = async (start: number) => {
      for (let i = start; running; i += 1) {
        const { path, init, ok } = load[i % load.length]!;
        // A failure says whose it is: nginx's own 502 page, or an instance's answer.
        const status = await fetch(`${front}${path}`, init).then(
          async (answer) => {
            const body = await answer.text();
            return answer.status === ok ? ok : `${answer.status} ${body.slice(0, 80)}`;
          },
          (error: Error) => error.message,
        );
        if (status !== ok) failed.push(`${path}: ${status}`);
        done += 1;
        for (const waiter of waiting.filter((one) => one.until <= done)) waiter.resolve();
      }
    };
    const moreRequests = (count: number) =>
      new Promise<void>((resolve) => waiting.push({ until: done + count, resolve }));
    const loops = Array.from({ length: 8 }, (_, i) => loop(i));
    // The operator's restart (docs/deploy.md): one instance at a time, the next once it is back.
    for (const index of [0, 1] as const) {
      const { port } = shops[index];
      await moreRequests(40);
      await shops[index].close();
      // nginx has only the other instance for a while.
      await moreRequests(40);
      shops[index] = await startShopProcess({
        port,
        env: { API_TARGET: recipe!.backend.url.replace(/\/$/, '') },
      });
    }
    await moreRequests(40);
    running = false;
    await Promise.all(loops);
    expect(failed).toEqual([]);
    expect(done).toBeGreaterThan(200);
  });

  test('/IMG/… and other spellings of a picture’s address are 404s that nginx does not keep', async () => {
    for (const path of [
      '/IMG/v1/480/catalog/product-7.jpg',
      '/Img/v1/480/catalog/product-7.jpg',
      '/img//v1/480/catalog/product-7.jpg',
    ]) {
      for (let i = 0; i < 2; i += 1) {
        const answer = await fetch(`${front}${path}`, { headers: { accept: 'image/avif,*/*' } });
        expect(answer.status, path).toBe(404);
        expect(answer.headers.get('x-cache-status'), path).not.toMatch(FROM_CACHE);
        await answer.arrayBuffer();
      }
    }
  });

  test('with one instance stopped, the other serves the shop', async () => {
    await shops[0].close();
    // Four addresses nobody asked for yet: each goes to an instance, none comes from the cache.
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${front}/catalog?after-stop=${i}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-cache-status')).toBe('MISS');
    }
  });

  test('with both instances stopped, a kept page still answers from nginx', async () => {
    const kept = await (await fetch(`${front}/section/14`)).text();
    await Promise.all(shops.map((shop) => shop.close()));
    const response = await fetch(`${front}/section/14`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(kept);
    // A page nobody asked for before has nothing to stand in for it.
    expect((await fetch(`${front}/section/9`)).status).toBe(502);
  });
});
