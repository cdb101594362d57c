// Issue 30: a public answer never sets a cookie. nginx will not keep an answer with Set-Cookie,
// but a CDN would, and would hand the cookie to every visitor after. Every route of the app, each
// with the cookies a visitor may carry (odd ones too), straight from an instance.
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/app/routes';
import { rawGet } from '../host/http-helpers';
import { baseUrl } from './browser';

/** An address of each route of src/app/routes.tsx, and pages of no route. */
const ADDRESSES: Record<string, string[]> = {
  '/': ['/'],
  '/catalog': ['/catalog'],
  '/section/:id': ['/section/1', '/section/999999'],
  '/selection/:id': ['/selection/1'],
  // 5 is sold out (stub-server/fixtures/catalog.ts).
  '/product/:id': ['/product/7', '/product/5', '/product/999999'],
  '/search': [`/search?q=${encodeURIComponent('мал')}`, '/search'],
  '/order': ['/order'],
  '/commit': ['/commit'],
  '/order_status': ['/order_status'],
  '/policy': ['/policy'],
  '/news': ['/news'],
  '/login': ['/login/', '/login/?next_page=/order'],
  '': ['/no-such-page'],
};

const COOKIES: Record<string, string> = {
  none: '',
  'an empty notice': 'notice=',
  'a notice': `notice=${encodeURIComponent('Не удалось изменить корзину')}`,
  'a notice that is no escape': 'notice=%E0%A4%A',
  'a basket': 'basket=1',
  'an empty basket mark': 'basket=',
  'a token the backend does not know': 'jwt=bogus',
  'an empty token': 'jwt=',
  'the dark theme': 'theme=dark',
  'the notice accepted': 'cookieAccepted=true',
  'a stale session and CSRF token': 'sessionid=bogus; csrftoken=bogus',
  'odd spellings': 'Theme=DARK; cookieAccepted="true"; x=1;\u00a0theme=dark; notice',
  'duplicates and escapes': 'theme=light; theme=dark; notice=; basket=%31; cookieAccepted=tru%65',
};

// Issue 39: Vary names what a page varies on (docs/deploy.md gives a CDN the exact keys).
describe('the answer to a page', () => {
  it('names an address for every route of the app', () => {
    expect(ROUTES.map((route) => route.path).sort()).toEqual(
      Object.keys(ADDRESSES).filter(Boolean).sort(),
    );
  });

  const cases = Object.values(ADDRESSES)
    .flat()
    .flatMap((address) =>
      Object.entries(COOKIES).map(([kind, cookie]) => [address, kind, cookie] as const),
    );
  it.each(cases)(
    '%s with %s is public or sets cookies, never both',
    async (address, _k, cookie) => {
      const answer = await rawGet(baseUrl(), address, cookie ? { cookie } : {});
      expect(answer.status).toBeLessThan(500);
      const cacheControl = String(answer.headers['cache-control']);
      const setCookie = answer.headers['set-cookie'] ?? [];
      if (/\bpublic\b/.test(cacheControl)) expect(setCookie).toEqual([]);
      if (setCookie.length > 0) expect(cacheControl).toBe('private, no-store');
      // What it varies on, named for any cache that keys by Vary (a CDN that obeys it).
      const vary = String(answer.headers.vary).split(/\s*,\s*/);
      expect(vary).toEqual(expect.arrayContaining(['Accept-Encoding', 'Cookie']));
    },
  );

  it('an empty notice is cleared, and that answer is the visitor’s own', async () => {
    const answer = await rawGet(baseUrl(), '/catalog', { cookie: 'notice=' });
    expect(answer.headers['set-cookie']?.join()).toMatch(/^notice=;/);
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });
});

// Issue 30: a browser asks again before each use of a page (Firefox used a stale window meant for
// nginx and CDNs to show an old page); the ETag makes the question cheap.
describe('a page a browser has kept', () => {
  it('is asked for again each time; unchanged, the answer is a 304 without the page', async () => {
    const first = await rawGet(baseUrl(), '/catalog');
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate, s-maxage=60');
    expect(first.headers['cdn-cache-control']).toBe(
      'max-age=60, stale-while-revalidate=600, stale-if-error=86400',
    );
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const same = await rawGet(baseUrl(), '/catalog', { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.body).toBe('');
    // The notice accepted since: another page, sent whole.
    const accepted = await rawGet(baseUrl(), '/catalog', {
      'if-none-match': etag,
      cookie: 'cookieAccepted=true',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.etag).not.toBe(etag);
  });

  it('a visitor’s own page is not kept at all', async () => {
    const own = await rawGet(baseUrl(), '/order');
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers['cdn-cache-control']).toBeUndefined();
  });
});
