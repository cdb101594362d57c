import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../src/api/types';
import { CookieNotice } from '../../../src/app/layout/CookieNotice';
import { Header } from '../../../src/app/layout/Header';
import { MainMenu } from '../../../src/app/layout/MainMenu';
import { PriceButton } from '../../../src/app/layout/PriceButton';
import { NotificationsOnDemand } from '../../../src/app/NotificationsOnDemand';
// Loaded with the first notification; imported here, its import() resolves at once.
import '../../../src/app/NotificationsHost';
import { ThemeToggle } from '../../../src/app/layout/ThemeToggle';
import { preloadPage, Routes } from '../../../src/app/routes';
import type { BasketStore } from '../../../src/features/basket/store';
import { notifyError } from '../../../src/ui/notify';
import { renderAt } from '../render';
import { testBasket } from '../test-basket';

const berry: Product = {
  id: 1,
  name: 'Малина',
  image: null,
  unit: 'кг',
  unit_step: 0.1,
  price: 900,
  rest: 5,
  available: true,
};

let basket: BasketStore['state'];
beforeEach(() => {
  basket = testBasket().state;
});
afterEach(() => {
  vi.useRealTimers();
});

/** The menu's items: in the page from the first byte, inside the popover the button opens. */
const menuItem = (name: string | RegExp) => screen.queryByRole('menuitem', { name, hidden: true });

describe('the menu', () => {
  it('always holds Заказы, and Корзина only while a line has an amount above 0', async () => {
    basket.lines = { '1': { product: berry, amount: 0 } };
    renderAt(<MainMenu />);
    expect(menuItem('Заказы')?.getAttribute('href')).toBe('/order_status');
    expect(menuItem(/Корзина/)).toBeNull();

    act(() => {
      basket.lines = { '1': { product: berry, amount: 1.5 } };
    });
    const cart = await screen.findByRole('menuitem', { name: /Корзина/, hidden: true });
    expect(cart.getAttribute('href')).toBe('/order');
  });

  it('counts lines, not amounts, in the cart badge', () => {
    basket.lines = {
      '1': { product: berry, amount: 3 },
      '2': { product: { ...berry, id: 2 }, amount: 2.5 },
      '3': { product: { ...berry, id: 3 }, amount: 0 },
    };
    renderAt(<MainMenu />);
    expect(menuItem('Корзина, товаров: 2')?.textContent).toBe('Корзина2');
  });

  it('is the popover its button opens by itself, a menu named Меню', () => {
    renderAt(<MainMenu />);
    const button = screen.getByRole('button', { name: 'Меню' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    const menu = document.getElementById(button.getAttribute('popovertarget') ?? '');
    expect(menu?.getAttribute('popover')).toBe('auto');
    expect(menu?.getAttribute('role')).toBe('menu');
    expect(menu?.getAttribute('aria-label')).toBe('Меню');
    expect(menu?.contains(menuItem('Заказы'))).toBe(true);
  });
});

describe('notifications', () => {
  afterEach(() => notifications.clean());

  it('are not on the page until one is shown, and show the first one', async () => {
    renderAt(<NotificationsOnDemand />);
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    act(() => notifyError('Не удалось изменить корзину'));
    expect(await screen.findByText('Не удалось изменить корзину')).toBeTruthy();
    expect(screen.getByText('Что-то пошло не так')).toBeTruthy();
  });
});

describe('the price button', () => {
  it.each([
    ['/', 1250, true],
    ['/catalog', 0.5, true],
    ['/', 0, false],
    ['/', Number.NaN, false],
    ['/', undefined, false],
    ['/order', 1250, false],
    ['/commit', 1250, false],
    ['/policy', 1250, false],
    ['/news', 1250, false],
    // The router opens these pages at any letter case and with a trailing slash too.
    ['/order/', 1250, false],
    ['/Commit', 1250, false],
    ['/NEWS/', 1250, false],
    ['/orders', 1250, true],
    ['/order_status', 1250, true],
  ])('on %s with total %s is visible: %s', (path, total, visible) => {
    basket.amount_sum = total as number;
    renderAt(<PriceButton />, path);
    expect(screen.queryByRole('link', { name: /Корзина на сумму/ }) !== null).toBe(visible);
  });

  it('shows the total in roubles and links to /order', () => {
    basket.amount_sum = 1250.5;
    renderAt(<PriceButton />, '/catalog');
    const link = screen.getByRole('link', { name: /Корзина на сумму/ });
    expect(link.textContent?.replace(/\s/g, ' ')).toBe('1 250,50 ₽');
    expect(link.getAttribute('href')).toBe('/order');
  });

  it('is not rendered on /order', () => {
    basket.amount_sum = 1250;
    renderAt(<PriceButton />, '/order');
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('the cookie notice', () => {
  it('is shown to a new visitor; Продолжить stores cookieAccepted for 30 days and hides it', () => {
    const writes: string[] = [];
    let proto: object | null = document;
    let descriptor: PropertyDescriptor | undefined;
    while (proto && !descriptor) {
      descriptor = Object.getOwnPropertyDescriptor(proto, 'cookie');
      proto = Object.getPrototypeOf(proto);
    }
    renderAt(<CookieNotice />);
    expect(screen.getByText(/соглашаетесь с использованием файлов cookie/)).toBeTruthy();
    const spy = vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      writes.push(value);
      descriptor?.set?.call(document, value);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Продолжить' }));
    spy.mockRestore();
    expect(writes[0]).toMatch(/^cookieAccepted=true; max-age=2592000; path=\//);
    expect(document.cookie).toContain('cookieAccepted=true');
    expect(screen.queryByRole('region', { name: 'Уведомление о cookie' })).toBeNull();
  });

  it('is not shown once accepted', () => {
    document.cookie = 'cookieAccepted=true; path=/';
    renderAt(<CookieNotice />);
    expect(screen.queryByRole('region', { name: 'Уведомление о cookie' })).toBeNull();
  });

  it.each(['/policy', '/policy/', '/Policy'])('is not shown on %s', (path) => {
    renderAt(<CookieNotice />, path);
    expect(screen.queryByRole('region', { name: 'Уведомление о cookie' })).toBeNull();
  });

  it('Подробнее opens /policy in a new tab', () => {
    renderAt(<CookieNotice />);
    const more = screen.getByRole('link', { name: 'Подробнее' });
    expect(more.getAttribute('href')).toBe('/policy');
    expect(more.getAttribute('target')).toBe('_blank');
  });
});

describe('the theme toggle', () => {
  it('shows a moon in light, switches to dark with a sun, and remembers it', async () => {
    renderAt(<ThemeToggle />);
    const toggle = screen.getByRole('button', { name: 'Переключить тему' });
    // Both icons are in the HTML (the server cannot know the theme); Mantine's global CSS hides
    // `mantine-light-hidden` in the light theme and `mantine-dark-hidden` in the dark one.
    expect(toggle.querySelector('[data-icon="moon"]')?.classList).toContain('mantine-dark-hidden');
    expect(toggle.querySelector('[data-icon="sun"]')?.classList).toContain('mantine-light-hidden');
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('light');
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark'),
    );
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(toggle.getAttribute('title')).toBe('Светлая тема');
    fireEvent.click(toggle);
    await waitFor(() => expect(localStorage.getItem('theme')).toBe('light'));
  });
});

describe('the header', () => {
  it('has the logo to /, Каталог to /catalog and the magnifier to /search', () => {
    renderAt(<Header />, '/');
    expect(screen.getByRole('link', { name: 'На главную' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: /Каталог/ }).getAttribute('href')).toBe('/catalog');
    expect(screen.getByRole('link', { name: 'Поиск' }).getAttribute('href')).toBe('/search');
  });

  it.each([
    ['/catalog', '/catalog'],
    ['/section/1?page=2', '/section/1?page=2'],
  ])('on %s its magnifier carries the page for the search’s back arrow', (path, from) => {
    renderAt(<Header />, path);
    const href = screen.getByRole('link', { name: 'Поиск' }).getAttribute('href') ?? '';
    const url = new URL(href, 'http://shop.test');
    expect(url.pathname).toBe('/search');
    expect(url.searchParams.get('from')).toBe(from);
  });

  it.each(['/search?q=мал', '/search/', '/Search'])('hides the magnifier on %s', (path) => {
    renderAt(<Header />, path);
    expect(screen.queryByRole('link', { name: 'Поиск' })).toBeNull();
  });
});

describe('routes', () => {
  it('draw a page whose code has loaded in the first pass, with no skeleton first', async () => {
    await preloadPage('/order');
    renderAt(<Routes />, '/order');
    expect(screen.queryByLabelText('Загрузка')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Корзина' })).toBeTruthy();
  });

  it('show the skeleton while a page that has not loaded yet arrives', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('[]', { headers: { 'content-type': 'application/json' } })),
    );
    renderAt(<Routes />, '/policy');
    expect(screen.getByLabelText('Загрузка')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Ягодная лавка — Политика конфиденциальности'));
  });

  it.each(['/no-such-page', '/product-404/7', '/section-404/3', '/selection-404/2'])(
    '%s shows the 404 page with a way home',
    async (path) => {
      renderAt(<Routes />, path);
      expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'На главную' }).getAttribute('href')).toBe('/');
      expect(document.title).toBe('Ягодная лавка — Страница не найдена');
    },
  );

  it.each([
    ['/', 'Главная'],
    ['/catalog', 'Каталог'],
    ['/order', 'Корзина'],
    ['/commit', 'Подтверждение заказа'],
    ['/order_status', 'Заказы'],
    ['/search', 'Поиск'],
    ['/news', 'Новости'],
    ['/policy', 'Политика конфиденциальности'],
    ['/login', 'Вход'],
  ])(
    '%s sets the title to the store name plus %s, and the shop’s description',
    async (path, section) => {
      // The pages load data; an empty answer is enough for their titles.
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response('[]', { headers: { 'content-type': 'application/json' } })),
      );
      document.head.innerHTML = '<title></title><meta name="description" content="a product" />';
      renderAt(<Routes />, path);
      // Pages load lazily, and the first import of a page module can be slow in happy-dom.
      await waitFor(() => expect(document.title).toBe(`Ягодная лавка — ${section}`));
      expect(document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content).toBe(
        'Ягодная лавка — свежие ягоды с доставкой по городу и самовывозом',
      );
      vi.unstubAllGlobals();
    },
  );
});
