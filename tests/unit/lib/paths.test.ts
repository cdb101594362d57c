// The one table of the shop's addresses: each address it gives is one its own pattern matches,
// as the router matches it, with the id read back as it was given.
import { parse } from 'regexparam';
import { describe, expect, it } from 'vitest';
import { matchRoute } from 'wouter';
import { paths } from '../../../src/lib/paths';

const matches = (pattern: string, address: string) => {
  const { pathname } = new URL(address, 'https://shop.example');
  return matchRoute(parse, pattern, pathname);
};

describe('paths', () => {
  it.each([
    ['section', paths.section],
    ['selection', paths.selection],
    ['product', paths.product],
    ['missing section', paths.missing.section],
    ['missing selection', paths.missing.selection],
    ['missing product', paths.missing.product],
  ])('the %s page of an id is matched by its pattern, the id read back', (_name, page) => {
    expect(matches(page.pattern, page(21))).toMatchObject([true, { id: '21' }]);
    // What a shopper may put in the address bar stays one segment.
    expect(page('a/b')).toBe(page.pattern.replace(':id', 'a%2Fb'));
  });

  it('gives the fixed pages their own addresses', () => {
    expect(
      [paths.home, paths.catalog, paths.basket, paths.commit, paths.orders, paths.policy].map(
        (page) => [page(), matches(page.pattern, page())[0]],
      ),
    ).toEqual([
      ['/', true],
      ['/catalog', true],
      ['/order', true],
      ['/commit', true],
      ['/order_status', true],
      ['/policy', true],
    ]);
    // The spec names the login page with its slash; the router opens it either way.
    expect(paths.login()).toBe('/login/');
    expect(matches(paths.login.pattern, paths.login())[0]).toBe(true);
  });

  it('puts the search words and the page it came from in the query, encoded, only when set', () => {
    expect(paths.search()).toBe('/search');
    expect(paths.search({ q: '' })).toBe('/search');
    expect(paths.search({ q: 'малина садовая' })).toBe(
      '/search?q=%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0%20%D1%81%D0%B0%D0%B4%D0%BE%D0%B2%D0%B0%D1%8F',
    );
    expect(paths.search({ from: '/product/7?x=1' })).toBe('/search?from=%2Fproduct%2F7%3Fx%3D1');
  });
});
