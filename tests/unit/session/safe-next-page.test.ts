import { describe, expect, it } from 'vitest';
import { safeNextPage } from '../../../src/features/session/safe-next-page';

describe('safeNextPage: where the login form may send the shopper', () => {
  it.each([
    ['/order_status', '/order_status'],
    ['/', '/'],
    ['/product/12', '/product/12'],
    ['/search?q=малина', '/search?q=малина'],
    ['/section/3#top', '/section/3#top'],
  ])('keeps the same-site path %j', (raw, expected) => {
    expect(safeNextPage(raw)).toBe(expected);
  });

  it.each([
    [null, 'missing'],
    [undefined, 'missing'],
    ['', 'empty'],
    ['//evil.example', 'protocol-relative URL'],
    ['//evil.example/order_status', 'protocol-relative URL with a path'],
    ['/\\evil.example', 'backslash read as a slash'],
    ['\\\\evil.example', 'two backslashes'],
    ['/\t/evil.example', 'tab dropped by the URL parser'],
    ['/\n/evil.example', 'line break dropped by the URL parser'],
    ['https://evil.example/', 'absolute https URL'],
    ['http://localhost/order', 'absolute URL, even to a local host'],
    ['javascript:alert(1)', 'javascript: URL'],
    ['JavaScript:alert(1)', 'javascript: URL in mixed case'],
    ['data:text/html,<script>alert(1)</script>', 'data: URL'],
    ['order_status', 'relative path'],
    [' /order_status', 'leading space'],
    ['/login/', 'the login page itself'],
    ['/login/?next_page=/order', 'the login page with its own next_page'],
    ['/login', 'the login page without the slash'],
    ['/LOGIN/', 'the login page in capitals, which the router opens too'],
    ['/.//evil.example', 'a dot segment that leaves the path //evil.example'],
    ['/%2e%2e//evil.example', 'an encoded dot-dot segment that leaves //evil.example'],
    ['/x/..//evil.example', 'a dot-dot segment that leaves //evil.example'],
  ])('replaces %j (%s) with /', (raw, _why) => {
    expect(safeNextPage(raw)).toBe('/');
  });
});
