// Backend text never becomes CSS or markup (issue 39): a slide whose fields carry CSS and
// addresses of other sites or schemes, rendered as the server writes it (the HTML a visitor gets
// first, where an attribute is text as written) and as the browser draws it.
import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CarouselSlide } from '../../../src/api/types';
import { HomeSlide } from '../../../src/features/catalog/HomeSlide';

/** The slide: a full-page overlay in its colours, and pictures from elsewhere. */
const HOSTILE: CarouselSlide = {
  id: 9,
  text: 'Скидки на клубнику\nТолько сегодня',
  image: 'https://evil.example/pixel.png',
  background:
    'red;position:fixed;inset:0;z-index:9999;background-image:url(https://evil.example/x.png)',
  text_color: '#fff;position:fixed;top:0',
};

const OWN: CarouselSlide = {
  id: 1,
  text: 'Свежая клубника',
  image: '/media/carousel/slide-1.jpg',
  background: '#fde2e4',
  text_color: 'rgb(122, 31, 43)',
};

describe('a slide of the backend’s', () => {
  it('whose colours carry CSS is shown in the theme’s colours, its text whole, in the server’s HTML', () => {
    const html = renderToString(<HomeSlide slide={HOSTILE} first />);
    expect(html).not.toMatch(/style=/);
    expect(html).not.toContain('position');
    expect(html).not.toContain('evil.example');
    expect(html).toContain('<p>Скидки на клубнику</p><p>Только сегодня</p>');
  });

  it('is the same in the browser: nothing of it in a style or a src', () => {
    const { getByTestId } = render(<HomeSlide slide={HOSTILE} first />);
    const slide = getByTestId('home-slide');
    expect(slide.getAttribute('style')).toBeNull();
    expect(slide.querySelector('img')).toBeNull();
    expect(slide.textContent).toBe('Скидки на клубникуТолько сегодня');
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:image/svg+xml,<svg onload=alert(1)>'],
    ['//evil.example/x.jpg'],
    ['/\\evil.example/x.jpg'],
    ['/media/x.jpg" onerror="alert(1)'],
  ])('with the picture %s shows no picture', (image) => {
    const html = renderToString(<HomeSlide slide={{ ...OWN, image }} first />);
    expect(html).not.toContain('<img');
    expect(html).toContain('<p>Свежая клубника</p>');
  });

  it('of a colour’s own shape keeps its colours and its picture', () => {
    const html = renderToString(<HomeSlide slide={OWN} first />);
    expect(html).toContain('style="background:#fde2e4;color:rgb(122, 31, 43)"');
    expect(html).toContain('src="/img/v1/480/carousel/slide-1.jpg"');
  });

  it('with one colour that is no colour is shown in the theme’s, not half in its own', () => {
    const html = renderToString(<HomeSlide slide={{ ...OWN, text_color: 'url(x)' }} first />);
    expect(html).not.toMatch(/style=/);
  });
});
