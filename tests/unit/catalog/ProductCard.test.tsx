// The product card's four states (spec §2, §4), its out-of-stock dialog, and the section card.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/api/types';
import { ProductCard, ProductGrid, SectionCard } from '../../../src/features/catalog';
import { formatRub } from '../../../src/lib/money';
import { GRID_CARD_SIZES } from '../../../src/features/catalog/ProductGrid';
import { PRODUCT_PAGE_SIZES } from '../../../src/features/catalog/ProductPage';
import { PLACEHOLDER_IMAGE } from '../../../src/ui/ImageWithPlaceholder';
import { renderAt } from '../render';

const strawberry: Product = {
  id: 2,
  name: 'Клубника «Альбион»',
  image: '/media/catalog/product-2.svg',
  unit: 'кг',
  unit_step: 0.1,
  price: 790,
  rest: 12.5,
  available: true,
};
const soldOut: Product = {
  ...strawberry,
  id: 5,
  name: 'Клубника «Азия»',
  rest: 0,
  available: false,
};
const noPrice: Product = { ...strawberry, id: 50, name: 'Морс из морошки', unit: 'л', price: null };
const noImage: Product = { ...strawberry, id: 45, name: 'Конфитюр черничный', image: null };

/** Exact text, whatever spaces Intl put in (`790 ₽` has a no-break space). */
function exactly(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(`^${escaped}$`);
}

function card() {
  return within(screen.getByTestId('product-card'));
}
function image(): HTMLImageElement {
  return screen.getByTestId('product-card').querySelector('img')!;
}
function productLinks(): string[] {
  return [...screen.getByTestId('product-card').querySelectorAll('a')].map(
    (a) => a.getAttribute('href') ?? '',
  );
}

describe('the product card', () => {
  it('available: image and name link to the product, unit price, stock, and В корзину', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={strawberry} />);
    expect(card().getByRole('link', { name: strawberry.name }).getAttribute('href')).toBe(
      '/product/2',
    );
    expect(productLinks()).toEqual(['/product/2', '/product/2']);
    expect(image().getAttribute('src')).toBe('/media/catalog/product-2.svg');
    expect(image().getAttribute('alt')).toBe(strawberry.name);
    expect(image().getAttribute('width')).toBe('300');
    expect(image().getAttribute('height')).toBe('300');
    expect(image().getAttribute('loading')).toBe('lazy');
    expect(image().dataset.greyed).toBeUndefined();
    expect(card().getByText(exactly(`${formatRub(790)} / кг`))).toBeTruthy();
    expect(card().getByText('в наличии 12,5 кг')).toBeTruthy();
    const add = card().getByRole('button', { name: 'В корзину' });
    expect(add.hasAttribute('disabled')).toBe(false);
    expect(card().queryByText('закончилось')).toBeNull();
    expect(card().queryByRole('button', { name: 'Недоступно' })).toBeNull();
  });

  it('unavailable: закончилось, a greyed image and Недоступно instead of В корзину', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={soldOut} />);
    expect(card().getByText('закончилось')).toBeTruthy();
    expect(card().queryByText(/в наличии/)).toBeNull();
    expect(image().dataset.greyed).toBe('true');
    const button = card().getByRole('button', { name: 'Недоступно' });
    // Disabled-looking, yet clickable: it opens the dialog.
    expect(button.hasAttribute('data-disabled')).toBe(true);
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(card().queryByRole('button', { name: 'В корзину' })).toBeNull();
  });

  it('no price: Цена неизвестна instead of the unit price', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={noPrice} />);
    expect(card().getByText('Цена неизвестна')).toBeTruthy();
    expect(card().queryByText(/₽/)).toBeNull();
    expect(card().getByText('в наличии 12,5 л')).toBeTruthy();
  });

  it('no image: the placeholder, still sized and described', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={noImage} />);
    expect(image().getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
    expect(image().getAttribute('alt')).toBe(noImage.name);
    expect(image().getAttribute('width')).toBe('300');
  });

  it.each(['javascript:alert(1)', 'https://evil.example/x.jpg', '//evil.example/x.jpg'])(
    'an image address that is not the shop’s own (%s) is the placeholder',
    (address) => {
      renderAt(
        <ProductCard imageSizes={GRID_CARD_SIZES} product={{ ...strawberry, image: address }} />,
      );
      expect(image().getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
      expect(image().getAttribute('srcset')).toBeNull();
    },
  );

  it('an image that fails to load gives way to the placeholder', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={strawberry} />);
    fireEvent.error(image());
    expect(image().getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
  });

  it('a photo comes from the image route: every width in srcset, the layout’s sizes', () => {
    const photo = { ...strawberry, image: '/media/catalog/product-2.jpg' };
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={photo} />);
    expect(image().getAttribute('src')).toBe('/img/v1/480/catalog/product-2.jpg');
    expect(image().getAttribute('srcset')?.split(', ')).toEqual(
      [160, 240, 320, 480, 640, 960, 1280].map((w) => `/img/v1/${w}/catalog/product-2.jpg ${w}w`),
    );
    expect(image().getAttribute('sizes')).toBe(GRID_CARD_SIZES);
    expect(image().getAttribute('loading')).toBe('lazy');
    // A failed picture becomes the placeholder, with no srcset left to override it.
    fireEvent.error(image());
    expect(image().getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
    expect(image().hasAttribute('srcset')).toBe(false);
  });

  it('a drawing (SVG) is sent as it is: it is sharp at any size', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={strawberry} />);
    expect(image().getAttribute('src')).toBe('/media/catalog/product-2.svg');
    expect(image().hasAttribute('srcset')).toBe(false);
  });

  it('the product page’s picture is asked for first', () => {
    const photo = { ...strawberry, image: '/media/catalog/product-2.jpg' };
    renderAt(<ProductCard imageSizes={PRODUCT_PAGE_SIZES} product={photo} priority />);
    expect(image().getAttribute('fetchpriority')).toBe('high');
    expect(image().getAttribute('loading')).toBe('eager');
    expect(image().getAttribute('sizes')).toBe(PRODUCT_PAGE_SIZES);
  });

  it('loads its image at once when asked to (first screenful), lazily otherwise', () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={strawberry} eager />);
    expect(image().getAttribute('loading')).toBe('eager');
  });
});

describe('the product grid', () => {
  const five = [1, 2, 3, 4, 5].map((id) => ({ ...strawberry, id, name: `Ягода ${id}` }));
  const loading = () =>
    screen.getAllByRole('img', { hidden: true }).map((img) => img.getAttribute('loading'));

  it('at the top of its page, loads the first screenful of images at once, the rest lazily', () => {
    renderAt(<ProductGrid products={five} eager />);
    expect(loading()).toEqual(['eager', 'eager', 'eager', 'eager', 'lazy']);
  });

  it('below a grid of one section (search), still loads the rest of that screenful at once', () => {
    renderAt(<ProductGrid products={five} eager cardsAbove={1} />);
    expect(loading()).toEqual(['eager', 'eager', 'eager', 'lazy', 'lazy']);
  });

  it('further down its page, loads every image lazily', () => {
    renderAt(<ProductGrid products={five} />);
    expect(loading()).toEqual(['lazy', 'lazy', 'lazy', 'lazy', 'lazy']);
  });
});

describe('the out-of-stock dialog', () => {
  it('Недоступно opens Товар закончился with the spec text; Ok closes it', async () => {
    renderAt(<ProductCard imageSizes={GRID_CARD_SIZES} product={soldOut} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Недоступно' }));

    const dialog = await screen.findByRole('dialog', { name: 'Товар закончился' });
    const text = dialog.textContent ?? '';
    expect(text).toMatch(/оставить заявку/);
    expect(text).toMatch(/сообщим вам, когда товар снова появится/);
    expect(text).toMatch(/цена товара может измениться/);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // It opens again on the next click.
    fireEvent.click(screen.getByRole('button', { name: 'Недоступно' }));
    expect(await screen.findByRole('dialog', { name: 'Товар закончился' })).toBeTruthy();
  });
});

describe('the section card', () => {
  it('shows the image and name, and links to the section', () => {
    renderAt(
      <SectionCard
        imageSizes={GRID_CARD_SIZES}
        section={{ id: 9, name: 'Лесные ягоды', image: '/media/catalog/section-9.svg' }}
      />,
    );
    const link = screen.getByRole('link', { name: /Лесные ягоды/ });
    expect(link.getAttribute('href')).toBe('/section/9');
    const img = link.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/media/catalog/section-9.svg');
    expect(img.getAttribute('width')).toBe('300');
  });

  it('falls back to the placeholder without an image', () => {
    renderAt(
      <SectionCard
        imageSizes={GRID_CARD_SIZES}
        section={{ id: 22, name: 'Экзотические ягоды', image: null }}
      />,
    );
    expect(screen.getByRole('link').querySelector('img')!.getAttribute('src')).toBe(
      PLACEHOLDER_IMAGE,
    );
  });
});

describe('the grid', () => {
  it('lists sections first, then products', () => {
    renderAt(
      <ProductGrid
        sections={[{ id: 9, name: 'Лесные ягоды', image: null }]}
        products={[strawberry, soldOut]}
      />,
    );
    const hrefs = [...document.querySelectorAll('[data-testid$="-card"]')].map((node) =>
      (node.matches('a') ? node : node.querySelector('a'))!.getAttribute('href'),
    );
    expect(hrefs).toEqual(['/section/9', '/product/2', '/product/5']);
  });
});
