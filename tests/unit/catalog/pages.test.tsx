// The catalogue screens against the real stub (its seed catalogue, its 404s and its fault
// injection), rendered through the app's own routes.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Routes } from '../../../src/app/routes';
import { renderAt } from '../render';
import { startStubProcess, type StubProcess } from './stub-process';

let stub: StubProcess;
beforeAll(async () => {
  stub = await startStubProcess();
}, 120_000);
afterAll(() => stub?.stop());
beforeEach(async () => {
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
  await stub.reset();
});

function open(path: string) {
  const view = renderAt(<Routes />, path);
  return { ...view, path: () => view.location.history?.at(-1) };
}

function crumbs(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Навигационная цепочка' });
  return [...nav.querySelectorAll('a, [aria-current="page"]')].map((node) =>
    node.matches('a') ? `${node.textContent}→${node.getAttribute('href')}` : `${node.textContent}`,
  );
}

describe('/section/{id}', () => {
  it('shows breadcrumbs from the home entry, the title, child sections, then products', async () => {
    open('/section/1');
    await screen.findByRole('heading', { level: 1, name: 'Ягоды' });
    expect(crumbs()).toEqual(['Главная→/', 'Ягоды']);
    const cards = [...document.querySelectorAll('[data-testid$="-card"]')];
    expect(cards.map((card) => card.getAttribute('data-testid'))).toEqual([
      'section-card',
      'section-card',
      'section-card',
      'section-card',
      'product-card',
    ]);
    expect(screen.getByRole('link', { name: /Садовые ягоды/ }).getAttribute('href')).toBe(
      '/section/8',
    );
    expect(screen.getByRole('link', { name: 'Ягодное ассорти, коробка 1 кг' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Ягодная лавка — Ягоды'));
  });

  it('deeper sections list their path, each crumb a link but the current one', async () => {
    open('/section/21');
    await screen.findByRole('heading', { level: 1, name: 'Клубника крупноплодная' });
    expect(crumbs()).toEqual([
      'Главная→/',
      'Ягоды→/section/1',
      'Садовые ягоды→/section/8',
      'Клубника→/section/14',
      'Клубника крупноплодная',
    ]);
  });

  it('reloads when only the id changes (a child section is opened)', async () => {
    open('/section/1');
    await screen.findByRole('heading', { level: 1, name: 'Ягоды' });
    fireEvent.click(screen.getByRole('link', { name: /Садовые ягоды/ }));
    await screen.findByRole('heading', { level: 1, name: 'Садовые ягоды' });
    expect(crumbs()).toEqual(['Главная→/', 'Ягоды→/section/1', 'Садовые ягоды']);
    expect(stub.calls).toContain('/api/catalog/section_retrieve/8');
  });

  it('says Раздел пока пуст for a section with nothing in it', async () => {
    open('/section/22');
    await screen.findByRole('heading', { level: 1, name: 'Экзотические ягоды' });
    expect(screen.getByText('Раздел пока пуст')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Каталог' }).getAttribute('href')).toBe('/catalog');
    expect(document.querySelector('[data-testid$="-card"]')).toBeNull();
  });

  it('a 404 replaces the page with /section-404/{id}, which shows the 404 page', async () => {
    const view = open('/section/999');
    await screen.findByText('Страница не найдена');
    expect(view.path()).toBe('/section-404/999');
    // Replaced, not pushed: Back does not return to the missing section.
    expect(view.location.history).toEqual(['/section-404/999']);
  });

  it('an id that is not a positive integer goes to the 404 page without a call', async () => {
    const view = open('/section/abc');
    await screen.findByText('Страница не найдена');
    expect(view.path()).toBe('/section-404/abc');
    expect(stub.calls.filter((path) => path.includes('section'))).toEqual([]);
  });

  it('a failed load shows a Russian message; Повторить loads it again', async () => {
    await stub.fault({ path: '/api/catalog/section_retrieve/1', status: 500 });
    open('/section/1');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Не удалось загрузить данные/);
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();

    await stub.clearFaults();
    fireEvent.click(within(alert).getByRole('button', { name: 'Повторить' }));
    await screen.findByRole('heading', { level: 1, name: 'Ягоды' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('/selection/{id}', () => {
  it('shows home then the selection name, its description, sections and products', async () => {
    open('/selection/1');
    await screen.findByRole('heading', { level: 1, name: 'Сезонные хиты' });
    expect(crumbs()).toEqual(['Главная→/', 'Сезонные хиты']);
    expect(screen.getByText(/Самое спелое на этой неделе/)).toBeTruthy();
    expect(document.querySelectorAll('[data-testid="section-card"]')).toHaveLength(2);
    expect(document.querySelectorAll('[data-testid="product-card"]')).toHaveLength(7);
    await waitFor(() => expect(document.title).toBe('Ягодная лавка — Сезонные хиты'));
  });

  it('says Раздел пока пуст for an empty selection', async () => {
    await stub.fault({
      path: '/api/catalog/selection_retrieve/3',
      status: 200,
      body: { id: 3, name: 'Подарки', description: '', sections: [], products: [] },
    });
    open('/selection/3');
    await screen.findByRole('heading', { level: 1, name: 'Подарки' });
    expect(screen.getByText('Раздел пока пуст')).toBeTruthy();
  });

  it('a 404 goes to /selection-404/{id}', async () => {
    const view = open('/selection/77');
    await screen.findByText('Страница не найдена');
    expect(view.path()).toBe('/selection-404/77');
  });

  it('a network failure offers Повторить, which works', async () => {
    await stub.fault({ path: '/api/catalog/selection_retrieve/2', network_error: true });
    open('/selection/2');
    const retry = await screen.findByRole('button', { name: 'Повторить' });
    await stub.clearFaults();
    fireEvent.click(retry);
    await screen.findByRole('heading', { level: 1, name: 'Для варенья' });
  });
});

describe('/product/{id}', () => {
  it('shows the breadcrumbs down to the product, its name and its card', async () => {
    open('/product/1');
    await screen.findByRole('heading', { level: 1, name: 'Клубника «Виктория»' });
    expect(crumbs()).toEqual([
      'Главная→/',
      'Ягоды→/section/1',
      'Садовые ягоды→/section/8',
      'Клубника→/section/14',
      'Клубника крупноплодная→/section/21',
      'Клубника «Виктория»',
    ]);
    const card = within(screen.getByTestId('product-card'));
    expect(card.getByText(/^690\s₽ \/ кг$/)).toBeTruthy();
    expect(card.getByText('в наличии 24 кг')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Доставка и самовывоз' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Ягодная лавка — Клубника «Виктория»'));
    // The description meta is the product's, as the server writes it, not the title.
    expect(document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content).toMatch(
      /^Клубника «Виктория»: 690\s₽ \/ кг, в наличии 24 кг\. Ягодная лавка, Вологда\.$/,
    );
  });

  it('В корзину puts one step in the basket, and the card then shows the amount', async () => {
    open('/product/1');
    const card = within(await screen.findByTestId('product-card'));
    fireEvent.click(card.getByRole('button', { name: 'В корзину' }));
    await waitFor(() => expect(card.queryByRole('button', { name: 'В корзину' })).toBeNull());
    // unit_step 0.5 for this product: the first press adds half a kilogram.
    await waitFor(() => expect(card.getByDisplayValue(/0[,.]5/)).toBeTruthy());
    expect(stub.calls).toContain('/api/catalog/basket/1');
  });

  it('an unknown product lands on the 404 page via /product-404/{id}', async () => {
    const view = open('/product/4040');
    await screen.findByText('Страница не найдена');
    expect(view.path()).toBe('/product-404/4040');
  });

  it('ids like 0, -1, 1.5 and 1e1 go to the 404 page without a call', async () => {
    for (const raw of ['0', '-1', '1.5', '1e1']) {
      const view = open(`/product/${raw}`);
      await screen.findByText('Страница не найдена');
      expect(view.path()).toBe(`/product-404/${raw}`);
      view.unmount();
    }
    expect(stub.calls.filter((path) => path.includes('product'))).toEqual([]);
  });
});

describe('/catalog', () => {
  it('shows the title Каталог, breadcrumbs and the root sections', async () => {
    open('/catalog');
    await screen.findByRole('heading', { level: 1, name: 'Каталог' });
    await screen.findByRole('link', { name: /Замороженные ягоды/ });
    expect(crumbs()).toEqual(['Главная→/', 'Каталог']);
    expect(document.querySelectorAll('[data-testid="section-card"]')).toHaveLength(7);
    await waitFor(() => expect(document.title).toBe('Ягодная лавка — Каталог'));
  });

  it('a failed load offers Повторить', async () => {
    await stub.fault({ path: '/api/catalog/section_root', status: 503 });
    open('/catalog');
    const retry = await screen.findByRole('button', { name: 'Повторить' });
    await stub.clearFaults();
    fireEvent.click(retry);
    await screen.findByRole('link', { name: /Замороженные ягоды/ });
  });
});

describe('home /', () => {
  it('shows the slides, split into paragraphs, in their own colours', async () => {
    open('/');
    const slides = await screen.findAllByTestId('home-slide');
    expect(slides).toHaveLength(3);
    const first = slides[0]!;
    expect([...first.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Свежая клубника с грядки',
      'Собираем утром — привозим к обеду',
      'Доставка по городу от 300 ₽',
    ]);
    expect(first.style.background).toMatch(/#fde2e4|rgb\(253, 226, 228\)/);
    expect(first.style.color).toMatch(/#7a1f2b|rgb\(122, 31, 43\)/);
  });

  it('lists the selections: name linking to the selection, description, its goods', async () => {
    open('/');
    const link = await screen.findByRole('link', { name: 'Сезонные хиты' });
    expect(link.getAttribute('href')).toBe('/selection/1');
    expect(screen.getByRole('link', { name: 'Для варенья' }).getAttribute('href')).toBe(
      '/selection/2',
    );
    expect(screen.getByText(/Ягоды с плотной мякотью/)).toBeTruthy();
    const block = link.closest('section')!;
    expect(block.querySelectorAll('[data-testid="section-card"]')).toHaveLength(2);
    expect(block.querySelectorAll('[data-testid="product-card"]')).toHaveLength(7);
  });

  it('tells about delivery: the address, pickup or courier, and the prices', async () => {
    open('/');
    const block = screen.getByRole('region', { name: 'Доставка и самовывоз' });
    const text = (block.textContent ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('Окружное шоссе, 29');
    expect(text).toMatch(/самовывоз/);
    expect(text).toMatch(/доставку курьером/);
    expect(text).toContain('по городу — 300 ₽');
    expect(text).toContain('от 500 ₽');
  });

  it('shows the home sections and home products, and titles the page Главная', async () => {
    open('/');
    const sections = await screen.findByRole('region', { name: 'Разделы' });
    await waitFor(() =>
      expect(sections.querySelectorAll('[data-testid="section-card"]')).toHaveLength(8),
    );
    const products = screen.getByRole('region', { name: 'Популярные товары' });
    await waitFor(() =>
      expect(products.querySelectorAll('[data-testid="product-card"]')).toHaveLength(10),
    );
    await waitFor(() => expect(document.title).toBe('Ягодная лавка — Главная'));
  });

  it('a failed block offers Повторить without hiding the rest of the page', async () => {
    await stub.fault({ path: '/api/catalog/selections', status: 500 });
    open('/');
    const alert = await screen.findByRole('alert');
    await screen.findAllByTestId('home-slide');
    await stub.clearFaults();
    fireEvent.click(within(alert).getByRole('button', { name: 'Повторить' }));
    await screen.findByRole('link', { name: 'Сезонные хиты' });
  });
});
