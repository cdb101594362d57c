// Each of the shop's own cookies (src/lib/cookie-table.ts) is written alike whoever writes it: the
// page's code (src/lib/cookies.ts), the host's forms and pages (host/forms/shop-cookies.ts) and the
// entry's calls (a token the backend refused). Same lifetime, path, SameSite and HttpOnly, and
// Secure exactly when the page is served over https: on plain http (127.0.0.1) a browser would
// not keep a Secure cookie at all.
import express, { type Request, type Response } from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { plainScheme } from '../../host/process/request-scheme.ts';
import { settingsForms } from '../../host/forms/settings-forms.ts';
import { shopCookies } from '../../host/forms/shop-cookies.ts';
import * as entry from '../../src/server-entry/entry-server.tsx';
import { COOKIES, type BrowserCookie, type ShopCookie } from '../../src/lib/cookie-table.ts';
import { writeCookie } from '../../src/lib/cookies.ts';
import { clearCookieLine, isShopDomainCookie } from '../../src/server-entry/cookie-lines.ts';
import { listen, type Listening } from './http-helpers.ts';

const { clearShopCookie, leaveNotice, markBasket, setShopCookie, takeNotice } = shopCookies(entry);

type Scheme = 'http' | 'https';

/** What a browser keeps of a cookie line: its attributes by lower-case name (Expires aside). */
function attributesOf(line: string) {
  const [pair = '', ...rest] = line.split(';').map((part) => part.trim());
  const at = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [key = '', value] = part.split('=');
    if (key.toLowerCase() !== 'expires')
      attributes[key.toLowerCase()] = value?.toLowerCase() ?? true;
  }
  return { name: pair.slice(0, at), value: decodeURIComponent(pair.slice(at + 1)), attributes };
}

/** The line the page's code gives document.cookie, on a page served over `scheme`. */
function browserLine(cookie: BrowserCookie, value: string | null, scheme: Scheme): string {
  const written: string[] = [];
  const globals = globalThis as unknown as Record<string, unknown>;
  globals.location = { protocol: `${scheme}:` };
  globals.document = {
    set cookie(line: string) {
      written.push(line);
    },
  };
  try {
    writeCookie(cookie, value);
  } finally {
    delete globals.location;
    delete globals.document;
  }
  expect(written).toHaveLength(1);
  return written[0] ?? '';
}

let shop: Listening;

beforeAll(async () => {
  const app = express();
  // As host/app.ts sets it up: the scheme is nginx's X-Forwarded-Proto.
  app.set('trust proxy', 'loopback');
  plainScheme(app);
  app.use(settingsForms(entry));
  const cookieNamed = (req: Request): ShopCookie => {
    const cookie = Object.values(COOKIES).find(({ name }) => name === req.query.name);
    if (!cookie) throw new Error(`no cookie ${String(req.query.name)}`);
    return cookie;
  };
  // The host's writers, each as its route uses it.
  app.get('/set', (req: Request, res: Response) => {
    setShopCookie(req, res, cookieNamed(req), String(req.query.value));
    res.end();
  });
  app.get('/clear', (req: Request, res: Response) => {
    clearShopCookie(req, res, cookieNamed(req));
    res.end();
  });
  app.get('/basket-mark', (req: Request, res: Response) => {
    markBasket(req, res, {}, 2);
    res.end();
  });
  app.get('/basket-unmark', (req: Request, res: Response) => {
    markBasket(req, res, { basket: '1' }, 0);
    res.end();
  });
  app.get('/notice', (req: Request, res: Response) => {
    leaveNotice(req, res, 'Не удалось изменить количество');
    res.end();
  });
  app.get('/notice-read', (req: Request, res: Response) => {
    takeNotice(req, res);
    res.end();
  });
  shop = await listen(app);
});

afterAll(() => shop.close());
afterEach(() => {
  expect('document' in globalThis).toBe(false);
});

/** The host's one Set-Cookie line for `path`, asked over `scheme` (as nginx says it). */
async function hostLine(path: string, scheme: Scheme, init: RequestInit = {}): Promise<string> {
  const answer = await fetch(`${shop.url}${path}`, {
    ...init,
    redirect: 'manual',
    headers: { 'X-Forwarded-Proto': scheme, ...(init.headers as Record<string, string>) },
  });
  const lines = answer.headers.getSetCookie();
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

const browserCookies = Object.values(COOKIES).filter(
  (cookie): cookie is (typeof COOKIES)[Exclude<keyof typeof COOKIES, 'notice'>] => !cookie.httpOnly,
);
/** A setting's form posted from the shop's own page. */
const posted: RequestInit = {
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
  body: 'back=/',
};

describe.each<Scheme>(['http', 'https'])('on a page served over %s', (scheme) => {
  it.each(browserCookies.map((cookie) => [cookie.name, cookie] as const))(
    '%s is set alike by the page and by the server',
    async (_name, cookie) => {
      const browser = attributesOf(browserLine(cookie, 'x', scheme));
      const server = attributesOf(await hostLine(`/set?name=${cookie.name}&value=x`, scheme));
      expect(server).toEqual(browser);
      expect(browser.attributes).toEqual({
        'max-age': String(cookie.maxAgeSeconds),
        path: '/',
        samesite: 'lax',
        ...(scheme === 'https' ? { secure: true } : {}),
      });
    },
  );

  it.each(browserCookies.map((cookie) => [cookie.name, cookie] as const))(
    '%s is dropped alike by the page and by the server',
    async (_name, cookie) => {
      const browser = attributesOf(browserLine(cookie, null, scheme));
      expect(attributesOf(await hostLine(`/clear?name=${cookie.name}`, scheme))).toEqual(browser);
      expect(browser.attributes['max-age']).toBe('0');
    },
  );

  it("is written by each of the server's writers as by the page", async () => {
    const set = (cookie: BrowserCookie, value: string) =>
      attributesOf(browserLine(cookie, value, scheme));
    expect(attributesOf(await hostLine('/cookie-consent', scheme, posted))).toEqual(
      set(COOKIES.cookieAccepted, 'true'),
    );
    expect(attributesOf(await hostLine('/theme', scheme, posted))).toEqual(
      set(COOKIES.theme, 'dark'),
    );
    expect(attributesOf(await hostLine('/basket-mark', scheme))).toEqual(set(COOKIES.basket, '1'));
    expect(attributesOf(await hostLine('/basket-unmark', scheme))).toEqual(
      attributesOf(browserLine(COOKIES.basket, null, scheme)),
    );
    // The entry's own: a token the backend refused is dropped from the visitor's browser.
    expect(attributesOf(clearCookieLine(COOKIES.token, scheme === 'https'))).toEqual(
      attributesOf(browserLine(COOKIES.token, null, scheme)),
    );
  });

  it("keeps the form's notice from the page's code, and lets it go in a minute", async () => {
    const left = attributesOf(await hostLine('/notice', scheme));
    expect(left).toEqual({
      name: 'notice',
      value: 'Не удалось изменить количество',
      attributes: {
        'max-age': '60',
        path: '/',
        httponly: true,
        samesite: 'lax',
        ...(scheme === 'https' ? { secure: true } : {}),
      },
    });
    const taken = await hostLine('/notice-read', scheme, { headers: { Cookie: 'notice=x' } });
    expect(attributesOf(taken).attributes).toEqual({ ...left.attributes, 'max-age': '0' });
  });
});

describe("the backend's cookies a visitor may get", () => {
  it.each([
    ['sessionid=a; Path=/', 'shop.example', true],
    ['sessionid=a; Domain=shop.example; Path=/', 'shop.example:8443', true],
    ['sessionid=a; Domain=.Shop.Example', 'shop.example', true],
    ['sessionid=a; Domain=', 'shop.example', true],
    ['sessionid=a; Domain=127.0.0.1', '127.0.0.1:8080', true],
    ['sessionid=a; Domain=evil.example', 'shop.example', false],
    ['city=x; Domain=example', 'shop.example', false],
    ['city=x; Domain=.example.com', 'shop.example.com', false],
    ['sessionid=a; Domain=shop.example; Domain=evil.example', 'shop.example', false],
  ])('%s, for a shop at %s: %s', (line, host, passes) => {
    expect(isShopDomainCookie(line, host)).toBe(passes);
  });
});
