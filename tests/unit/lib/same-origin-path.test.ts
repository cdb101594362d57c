import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, sameOriginPath } from '../../../src/lib/same-origin-path';

// The one guard every form's return address passes (cookie notice, theme, basket, checkout,
// login's next_page): what a browser would do with the Location it writes decides.
describe('sameOriginPath: where a form may send the shopper back', () => {
  it.each([
    '/',
    '/order_status',
    '/product/12',
    '/search?q=малина',
    '/search?q=%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0',
    // A slash inside the query is the shopper's text, not a path.
    '/search?q=a%2Fb',
    '/section/3#top',
    '/Policy/',
    '/a/../catalog',
    `/${'a'.repeat(MAX_PATH_LENGTH - 1)}`,
  ])('keeps the path on this site %j', (raw) => {
    expect(sameOriginPath(raw)).toBe(raw);
  });

  it.each([
    [null, 'missing'],
    [undefined, 'missing'],
    [42, 'not text'],
    [['/order'], 'a repeated form field'],
    ['', 'empty'],
    ['order_status', 'a relative path'],
    [' /order_status', 'a leading space'],
    ['//x', 'another host, scheme-relative'],
    ['//evil.example/order_status', 'another host with a path'],
    ['///evil.example', 'three slashes'],
    ['/\\x', 'a backslash, which browsers read as a slash'],
    ['/\\/x', 'slash, backslash, slash'],
    ['\\\\evil.example', 'two backslashes'],
    ['/.//x', 'a dot segment that leaves //x'],
    ['/././/x', 'two dot segments'],
    ['/x/..//x', 'a dot-dot segment that leaves //x'],
    ['/%2e//x', 'an encoded dot segment that leaves //x'],
    ['/%2E%2E//x', 'an encoded dot-dot segment in capitals'],
    ['/%2f/x', 'an encoded slash'],
    ['/%2F%2Fevil.example', 'two encoded slashes'],
    ['/%5cx', 'an encoded backslash'],
    ['/%5C%5Cevil.example', 'two encoded backslashes'],
    ['/\t/x', 'a tab, which browsers drop'],
    ['/\n/x', 'a line break, which browsers drop'],
    ['/\r\nSet-Cookie: jwt=x', 'a header split'],
    ['/\u0000/x', 'a NUL'],
    ['/\u007f/x', 'a DEL'],
    ['javascript:alert(1)', 'a javascript: URL'],
    ['JavaScript:alert(1)', 'a javascript: URL in mixed case'],
    ['data:text/html,<script>alert(1)</script>', 'a data: URL'],
    ['https://evil.example/', 'an absolute URL'],
    ['http://localhost/order', 'an absolute URL, even to this machine'],
    ['https:/evil.example', 'a scheme with one slash'],
  ] as [unknown, string][])('replaces %j (%s) with /', (raw) => {
    expect(sameOriginPath(raw)).toBe('/');
  });

  it('replaces a path longer than a Location header may be with /', () => {
    expect(sameOriginPath(`/${'a'.repeat(MAX_PATH_LENGTH)}`)).toBe('/');
  });
});
