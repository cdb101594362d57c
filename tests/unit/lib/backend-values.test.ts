// The shapes a backend's value must have before it reaches a style, a src or an href (issue 39).
import { describe, expect, it } from 'vitest';
import { cssColour } from '../../../src/lib/css-colour';
import { shopImagePath } from '../../../src/lib/image-url';
import { linkUrl } from '../../../src/lib/link-url';

describe('a colour', () => {
  it.each([
    '#fff',
    '#FDE2E4',
    '#fde2e480',
    '#abcd',
    'rgb(122, 31, 43)',
    'rgba(0,0,0,0.5)',
    'hsl(120deg 50% 40%)',
    'hsla(120, 50%, 40%, .5)',
    ' #fff ',
  ])('%s passes', (value) => {
    expect(cssColour(value)).toBe(value.trim());
  });

  it.each([
    'red;position:fixed',
    '#fff;top:0',
    'url(https://evil.example/x.png)',
    'rgb(1,2,3);x:y',
    'rgb(1,2,3) url(x)',
    'var(--x)',
    'expression(alert(1))',
    '#ggg',
    'red',
    '',
    null,
    42,
  ])('%s does not', (value) => {
    expect(cssColour(value)).toBeNull();
  });
});

describe('a picture’s address', () => {
  it.each(['/media/catalog/product-7.jpg', '/media/%D0%BC.jpg', '/placeholder-product.svg'])(
    '%s is the shop’s own',
    (src) => {
      expect(shopImagePath(src)).toBe(src);
    },
  );

  it.each([
    'https://evil.example/x.jpg',
    '//evil.example/x.jpg',
    '/\\evil.example/x.jpg',
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'media/x.jpg',
    '/',
    '',
    null,
    undefined,
  ])('%s is not', (src) => {
    expect(shopImagePath(src)).toBeNull();
  });
});

describe('a link’s address', () => {
  it.each(['/media/policy.pdf', 'https://files.example/policy.pdf', 'http://files.example/p.pdf'])(
    '%s passes',
    (url) => {
      expect(linkUrl(url)).toBe(url);
    },
  );

  it.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '//evil.example/x',
    '/\\evil.example',
    'policy.pdf',
    '/',
    '',
    null,
  ])('%s does not', (url) => {
    expect(linkUrl(url)).toBeNull();
  });
});
