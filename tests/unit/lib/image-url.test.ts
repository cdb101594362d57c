// Which pictures go through the image route, and the addresses it answers.
import { describe, expect, it } from 'vitest';
import { imageUrl, isResizable, responsiveImage } from '../../../src/lib/image-url';

describe('image addresses', () => {
  it('resizes the backend’s /media photos, and nothing else', () => {
    expect(isResizable('/media/catalog/product-7.jpg')).toBe(true);
    expect(isResizable('/media/catalog/%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0.jpeg')).toBe(true);
    for (const src of [
      null,
      '/media/catalog/product-7.svg',
      '/media/x.SVG',
      'https://cdn.example/media/x.jpg',
      '//cdn.example/media/x.jpg',
      '/static/x.jpg',
      '/media/x.jpg?v=2',
      '/media//x.jpg',
      '/placeholder-product.svg',
    ]) {
      expect(isResizable(src), String(src)).toBe(false);
    }
  });

  it('writes the route’s address for a width, and for link previews', () => {
    expect(imageUrl('/media/catalog/product-7.jpg', 320)).toBe('/img/v1/320/catalog/product-7.jpg');
    expect(imageUrl('/media/catalog/product-7.jpg', 'og')).toBe('/img/v1/og/catalog/product-7.jpg');
  });

  it('leaves other pictures as they are, without srcset', () => {
    expect(responsiveImage('https://cdn.example/x.jpg', '100px')).toEqual({
      src: 'https://cdn.example/x.jpg',
    });
  });
});
