import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import type { Product, SectionRef } from '../../../src/api/types';
import { colorSchemeManager } from '../../../src/app/App';
import { PageDataProvider, startNavigation } from '../../../src/app/page-loading';
import { theme } from '../../../src/app/theme';
import { searchQuery } from '../../../src/features/search/queries';
import { MAX_QUERY_LENGTH } from '../../../src/features/search/query';
import SearchPage from '../../../src/features/search/SearchPage';
import type { SearchFound } from '../../../src/features/search/useSearchResults';
import { PageData } from '../../../src/ui/page-data';
import { RASPBERRY } from '../basket-fakes';
import { renderAt } from '../render';

// Every search call is held until the test answers it, so the order of answers is the test's.
interface Call {
  kind: 'products' | 'sections';
  q: string;
  signal: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const api = vi.hoisted(() => ({ calls: [] as Call[] }));

vi.mock('../../../src/api/catalog', () => {
  const held =
    (kind: Call['kind']) =>
    (q: string, signal?: AbortSignal): Promise<unknown> =>
      new Promise((resolve, reject) => {
        api.calls.push({ kind, q, signal, resolve, reject });
      });
  return { searchProducts: held('products'), searchSections: held('sections') };
});

const NOTHING = 'По вашему запросу не нашлось товаров';

const raspberry: Product = RASPBERRY;
const mango: Product = { ...RASPBERRY, id: 99, name: 'Манго' };
const section: SectionRef = { id: 15, name: 'Малина и ежевика', image: null };

/** The queries searched so far, one per search (each search asks for products and sections). */
const searched = () => api.calls.filter((c) => c.kind === 'products').map((c) => c.q);

/** Answers the search for `q` (the latest one for it) with these sections and products. */
async function answer(q: string, products: Product[], sections: SectionRef[] = []) {
  const latest = (kind: Call['kind']) => api.calls.findLast((c) => c.kind === kind && c.q === q);
  await act(async () => {
    latest('products')!.resolve(products);
    latest('sections')!.resolve(sections);
  });
}

/** Fails the latest `kind` call for `q`, as a lost connection or a 500 would. */
async function fail(q: string, kind: Call['kind']) {
  await act(async () => {
    api.calls.findLast((c) => c.kind === kind && c.q === q)!.reject(new Error('500'));
  });
}

/** Both calls for `q` fail, as when the connection is lost. */
async function failBoth(q: string) {
  await fail(q, 'sections');
  await fail(q, 'products');
}

const field = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Поиск' });
const type = (text: string) => fireEvent.change(field(), { target: { value: text } });
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  api.calls.length = 0;
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the search field', () => {
  it('is labelled Поиск and has focus', () => {
    renderAt(<SearchPage />, '/search');
    expect(document.activeElement).toBe(field());
  });

  it('searches 500 ms after the last keystroke, once, for the last text', () => {
    renderAt(<SearchPage />, '/search');
    type('м');
    wait(300);
    type('ма');
    wait(300);
    type('мал');
    wait(499);
    expect(searched()).toEqual([]);
    wait(1);
    expect(searched()).toEqual(['мал']);
    expect(api.calls.map((c) => c.kind).sort()).toEqual(['products', 'sections']);
    wait(2000);
    expect(searched()).toEqual(['мал']);
  });

  it('searches at once on Enter (form submit), without a second search after the pause', () => {
    renderAt(<SearchPage />, '/search');
    type('мал');
    fireEvent.submit(field().closest('form')!);
    expect(searched()).toEqual(['мал']);
    wait(1000);
    expect(searched()).toEqual(['мал']);
  });

  it('searches at once when the shopper presses Enter in the field', async () => {
    // Real timers: Testing Library's async wrapper waits on a timer fake ones would never fire.
    // Typing takes a few milliseconds, far less than the pause, so only Enter can search here.
    vi.useRealTimers();
    const user = userEvent.setup();
    renderAt(<SearchPage />, '/search');
    await user.type(field(), 'клубн{Enter}');
    expect(searched()).toEqual(['клубн']);
  });

  it('searches at once on the search icon', () => {
    renderAt(<SearchPage />, '/search');
    type('черн');
    fireEvent.click(screen.getByRole('button', { name: 'Найти' }));
    expect(searched()).toEqual(['черн']);
  });

  it('sends no request and shows nothing for an empty or blank query', () => {
    renderAt(<SearchPage />, '/search');
    type('   ');
    fireEvent.click(screen.getByRole('button', { name: 'Найти' }));
    wait(1000);
    expect(searched()).toEqual([]);
    expect(screen.queryByText(NOTHING)).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it(`sends at most ${MAX_QUERY_LENGTH} characters of a 10,000-character text`, async () => {
    const { location } = renderAt(<SearchPage />, '/search');
    type('малина'.repeat(2000));
    wait(500);
    expect(searched()).toHaveLength(1);
    expect(searched()[0]).toHaveLength(MAX_QUERY_LENGTH);
    expect(field().value).toHaveLength(MAX_QUERY_LENGTH);
    expect(decodeURIComponent(location.history.at(-1)!).length).toBeLessThan(200);
    await answer(searched()[0]!, []);
    expect(screen.getByText(NOTHING)).toBeTruthy();
  });

  it('clears the field, the URL and the results with its clear button', async () => {
    const { location } = renderAt(<SearchPage />, '/search?q=мал');
    await answer('мал', [raspberry]);
    expect(screen.getByText('Малина')).toBeTruthy();

    const clear = screen.getByRole('link', { name: 'Очистить поиск' });
    // Before the app and without it, the link opens the empty search.
    expect(clear.getAttribute('href')).toBe('/search');
    fireEvent.click(clear);
    expect(field().value).toBe('');
    expect(document.activeElement).toBe(field());
    expect(location.history.at(-1)).toBe('/search');
    expect(screen.queryByText('Малина')).toBeNull();
    wait(1000);
    expect(searched()).toEqual(['мал']);
  });
});

describe('the URL', () => {
  it('runs the search in ?q= at once when the page opens', () => {
    renderAt(<SearchPage />, '/search?q=клубника');
    expect(field().value).toBe('клубника');
    expect(searched()).toEqual(['клубника']);
  });

  it('follows typing by replacing the entry, so history does not pile up', () => {
    const { location } = renderAt(<SearchPage />, '/search');
    type('м');
    type('ма');
    type('мал ');
    expect(location.history).toHaveLength(1);
    expect(new URLSearchParams(location.history[0]!.split('?')[1]).get('q')).toBe('мал ');
    type('');
    expect(location.history).toEqual(['/search']);
  });

  it('fills the field and searches at once when it changes elsewhere (back/forward)', async () => {
    const { location } = renderAt(<SearchPage />, '/search?q=мал');
    await answer('мал', [raspberry]);

    act(() => location.navigate('/search?q=манго'));
    expect(field().value).toBe('манго');
    expect(searched()).toEqual(['мал', 'манго']);
    await answer('манго', [mango]);
    expect(screen.getByText('Манго')).toBeTruthy();
    expect(screen.queryByText('Малина')).toBeNull();

    act(() => location.navigate('/search'));
    expect(field().value).toBe('');
    expect(screen.queryByText('Манго')).toBeNull();
  });

  it('drops a pending pause when the URL replaces the typed text', () => {
    const { location } = renderAt(<SearchPage />, '/search');
    type('мал');
    wait(200);
    act(() => location.navigate('/search?q=черника'));
    wait(1000);
    expect(searched()).toEqual(['черника']);
  });
});

describe('results', () => {
  it('shows sections above products', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await answer('мал', [raspberry], [section]);
    const sectionLink = screen.getByRole('link', { name: 'Малина и ежевика' });
    const productLink = screen.getByRole('link', { name: 'Малина' });
    expect(sectionLink.getAttribute('href')).toBe('/section/15');
    expect(productLink.getAttribute('href')).toBe('/product/7');
    expect(
      sectionLink.compareDocumentPosition(productLink) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.queryByText(NOTHING)).toBeNull();
  });

  it('ignores a stale answer that arrives after the newer one, and aborts its request', async () => {
    renderAt(<SearchPage />, '/search');
    type('ма');
    wait(500);
    type('мал');
    wait(500);
    expect(searched()).toEqual(['ма', 'мал']);
    const older = api.calls.filter((c) => c.q === 'ма');
    expect(older.every((c) => c.signal?.aborted)).toBe(true);
    expect(api.calls.filter((c) => c.q === 'мал').some((c) => c.signal?.aborted)).toBe(false);

    await answer('мал', [raspberry]);
    await answer('ма', [mango, raspberry]);
    expect(screen.getByText('Малина')).toBeTruthy();
    expect(screen.queryByText('Манго')).toBeNull();
  });

  it('ignores a stale answer that arrives before the newer one', async () => {
    renderAt(<SearchPage />, '/search');
    type('ма');
    wait(500);
    type('мал');
    wait(500);
    await answer('ма', [mango]);
    expect(screen.queryByText('Манго')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Ищем');
    await answer('мал', [raspberry]);
    expect(screen.getByText('Малина')).toBeTruthy();
    expect(screen.queryByText('Манго')).toBeNull();
  });

  it('shows a loading indicator while searching', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    expect(screen.getByRole('status').textContent).toContain('Ищем');
    await answer('мал', [raspberry]);
    expect(screen.getByRole('status').textContent).not.toContain('Ищем');
  });

  it('shows a Russian error with Повторить on failure, and retries', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await failBoth('мал');
    expect(screen.getByRole('alert').textContent).toContain('Не удалось выполнить поиск');
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(searched()).toEqual(['мал', 'мал']);
    await answer('мал', [raspberry]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Малина')).toBeTruthy();
  });
  it('shows the products when only the section search fails, without sections or an error', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await fail('мал', 'sections');
    expect(screen.getByRole('status').textContent).toContain('Ищем');
    await act(async () => {
      api.calls.findLast((c) => c.kind === 'products')!.resolve([raspberry]);
    });
    expect(screen.getByRole('link', { name: 'Малина' }).getAttribute('href')).toBe('/product/7');
    expect(screen.queryByRole('region', { name: 'Разделы' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(NOTHING)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Найдено товаров: 1');
  });

  it('shows found products without sections that have not answered 300 ms later', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await act(async () => {
      api.calls.findLast((c) => c.kind === 'products')!.resolve([raspberry]);
    });
    await act(async () => vi.advanceTimersByTime(299));
    expect(screen.getByRole('status').textContent).toContain('Ищем');
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.getByRole('link', { name: 'Малина' }).getAttribute('href')).toBe('/product/7');
    expect(screen.getByRole('status').textContent).toBe('Найдено товаров: 1');
    // Sections that come after the products were shown would push them down: left out.
    await act(async () => {
      api.calls.findLast((c) => c.kind === 'sections')!.resolve([section]);
    });
    expect(screen.queryByRole('region', { name: 'Разделы' })).toBeNull();
  });

  it('waits for sections that answer within 300 ms of the products', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await act(async () => {
      api.calls.findLast((c) => c.kind === 'products')!.resolve([raspberry]);
    });
    await act(async () => vi.advanceTimersByTime(200));
    await act(async () => {
      api.calls.findLast((c) => c.kind === 'sections')!.resolve([section]);
    });
    expect(screen.getByRole('link', { name: 'Малина и ежевика' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Найдено товаров: 1, разделов: 1');
  });

  it('dims the results and drops their count once the field says something else', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await answer('мал', [raspberry]);
    const card = () => screen.getByRole('link', { name: 'Малина' });
    expect(card().closest('[inert]')).toBeNull();

    type('манго');
    // Inert: no tap, Tab or screen reader reaches results that answer the old text.
    expect(card().closest('[inert]')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    wait(500);
    expect(card().closest('[inert]')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Ищем');
    await answer('манго', [mango]);
    expect(screen.queryByText('Малина')).toBeNull();
    expect(screen.getByRole('link', { name: 'Манго' }).closest('[inert]')).toBeNull();
  });

  it('shows the error with Повторить when the product search fails, even with sections found', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await act(async () => {
      api.calls.findLast((c) => c.kind === 'sections')!.resolve([section]);
    });
    await fail('мал', 'products');
    expect(screen.getByRole('alert').textContent).toContain('Не удалось выполнить поиск');
    expect(screen.queryByRole('link', { name: 'Малина и ежевика' })).toBeNull();
    expect(screen.queryByText(NOTHING)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(searched()).toEqual(['мал', 'мал']);
    await answer('мал', [raspberry], [section]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Малина' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Малина и ежевика' })).toBeTruthy();
  });

  it('tries a failed query again on Enter', async () => {
    renderAt(<SearchPage />, '/search?q=мал');
    await failBoth('мал');
    fireEvent.submit(field().closest('form')!);
    expect(searched()).toEqual(['мал', 'мал']);
    await answer('мал', [raspberry]);
    expect(screen.getByText('Малина')).toBeTruthy();
  });
});

describe('«nothing found»', () => {
  it('is not shown before the first search, while waiting for the pause, or while loading', async () => {
    renderAt(<SearchPage />, '/search');
    expect(screen.queryByText(NOTHING)).toBeNull();
    type('абв');
    wait(499);
    expect(screen.queryByText(NOTHING)).toBeNull();
    wait(1);
    expect(screen.queryByText(NOTHING)).toBeNull();
    await answer('абв', []);
    expect(screen.getByText(NOTHING)).toBeTruthy();
  });

  it('goes away as soon as the shopper types again, and while the next search loads', async () => {
    renderAt(<SearchPage />, '/search?q=абв');
    await answer('абв', []);
    expect(screen.getByText(NOTHING)).toBeTruthy();

    type('абвг');
    expect(screen.queryByText(NOTHING)).toBeNull();
    wait(500);
    expect(screen.queryByText(NOTHING)).toBeNull();
    await answer('абвг', []);
    expect(screen.getByText(NOTHING)).toBeTruthy();
  });

  it('is shown below the sections when sections match but no products do', async () => {
    renderAt(<SearchPage />, '/search?q=ягоды');
    await answer('ягоды', [], [section]);
    const sectionLink = screen.getByRole('link', { name: 'Малина и ежевика' });
    const nothing = screen.getByText(NOTHING);
    expect(
      sectionLink.compareDocumentPosition(nothing) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Товары' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Найдено разделов: 1');
  });

  it('goes away below the sections too as soon as the shopper types again', async () => {
    renderAt(<SearchPage />, '/search?q=ягоды');
    await answer('ягоды', [], [section]);
    expect(screen.getByText(NOTHING)).toBeTruthy();
    type('ягоды м');
    expect(screen.queryByText(NOTHING)).toBeNull();
    expect(screen.getByRole('link', { name: 'Малина и ежевика' })).toBeTruthy();
  });

  it('is not shown after a failed search', async () => {
    renderAt(<SearchPage />, '/search?q=абв');
    await failBoth('абв');
    expect(screen.queryByText(NOTHING)).toBeNull();
  });
});

describe('the back arrow and the logo', () => {
  it('the logo links to /', () => {
    renderAt(<SearchPage />, '/search');
    expect(screen.getByRole('link', { name: 'На главную' }).getAttribute('href')).toBe('/');
  });

  it('goes to / when there is no earlier page of the shop', () => {
    const { location } = renderAt(<SearchPage />, '/search?q=мал');
    Object.defineProperty(window, 'navigation', {
      configurable: true,
      value: { canGoBack: false },
    });
    try {
      fireEvent.click(screen.getByRole('link', { name: 'Назад' }));
    } finally {
      Reflect.deleteProperty(window, 'navigation');
    }
    expect(location.history.at(-1)).toBe('/');
  });

  it.each([
    ['/search?q=мал', '/'],
    ['/search?q=мал&from=%2Fproduct%2F7', '/product/7'],
    ['/search?from=%2Fsection%2F1%3Fpage%3D2', '/section/1?page=2'],
    ['/search?q=мал&from=%2F%2Fevil.example', '/'],
    ['/search?q=мал&from=https%3A%2F%2Fevil.example%2F', '/'],
    ['/search?q=мал&from=javascript%3Aalert(1)', '/'],
  ])('on %s links to %s, the page the search was opened from if it is on this site', (path, to) => {
    renderAt(<SearchPage />, path);
    expect(screen.getByRole('link', { name: 'Назад' }).getAttribute('href')).toBe(to);
  });

  it('keeps the page it was opened from through typing, the clear button and the form', () => {
    const { location } = renderAt(<SearchPage />, '/search?from=%2Fproduct%2F7');
    type('мал');
    const url = new URL(location.history.at(-1)!, 'http://shop.test');
    expect(url.searchParams.get('q')).toBe('мал');
    expect(url.searchParams.get('from')).toBe('/product/7');
    const clear = screen.getByRole('link', { name: 'Очистить поиск' });
    expect(clear.getAttribute('href')).toBe('/search?from=%2Fproduct%2F7');
    // Without the app the form is a GET of /search: the page to go back to rides along.
    const form = screen.getByRole('search') as HTMLFormElement;
    expect(new FormData(form).get('from')).toBe('/product/7');
    fireEvent.click(clear);
    expect(location.history.at(-1)).toBe('/search?from=%2Fproduct%2F7');
  });

  it('goes back in history when there is an earlier page', () => {
    const { location } = renderAt(<SearchPage />, '/search?q=мал');
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    Object.defineProperty(window, 'navigation', {
      configurable: true,
      value: { canGoBack: true },
    });
    try {
      fireEvent.click(screen.getByRole('link', { name: 'Назад' }));
      expect(back).toHaveBeenCalledOnce();
      expect(location.history).toEqual(['/search?q=мал']);
    } finally {
      Reflect.deleteProperty(window, 'navigation');
      back.mockRestore();
    }
  });
});

/**
 * Renders the page as the app does (src/app/App.tsx): in the browser's location (happy-dom's),
 * whose navigations start the next page's loads (the route's loader table entry), and with the
 * page's data, which holds the server's `answers` for the first page.
 */
function renderInApp(path: string, answers: Record<string, unknown> = {}) {
  window.history.replaceState(null, '', path);
  return render(
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
    >
      <Router aroundNav={startNavigation}>
        <PageDataProvider first={new PageData(path, answers)}>
          <SearchPage />
        </PageDataProvider>
      </Router>
    </MantineProvider>,
  );
}

/** The URL's q, as the address bar shows it. */
const urlQuery = () => new URLSearchParams(window.location.search).get('q');

// Spec §2, §9: the field's text is in the URL at each key, and the search runs on submit, on the
// icon and after the pause; a URL the field writes opens no page, so it starts none of its loads.
describe('in the app: the calls a search sends', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('writes each key into q, asks once after the pause, and nothing on Enter after it', () => {
    renderInApp('/search');
    type('м');
    wait(300);
    type('ма');
    wait(300);
    type('мал');
    expect(urlQuery()).toBe('мал');
    wait(499);
    expect(api.calls).toEqual([]);
    wait(1);
    expect(searched()).toEqual(['мал']);
    expect(api.calls).toHaveLength(2);

    fireEvent.submit(field().closest('form')!);
    wait(1000);
    expect(api.calls).toHaveLength(2);
  });

  it('asks once at once on the search icon, and not again after the pause', () => {
    renderInApp('/search');
    type('ч');
    type('черн');
    fireEvent.click(screen.getByRole('button', { name: 'Найти' }));
    expect(searched()).toEqual(['черн']);
    wait(1000);
    expect(api.calls).toHaveLength(2);
  });

  it('a page the server answered asks again only after the pause in the next typing', () => {
    const found: SearchFound = { query: 'мал', sections: [], products: [raspberry] };
    renderInApp('/search?q=мал', { [searchQuery('мал').key]: found });
    expect(screen.getByText('Малина')).toBeTruthy();
    expect(api.calls).toEqual([]);

    type('мали');
    expect(urlQuery()).toBe('мали');
    wait(499);
    expect(api.calls).toEqual([]);
    wait(1);
    expect(searched()).toEqual(['мали']);
    expect(api.calls).toHaveLength(2);
  });

  it('back and forward to another q fill the field and search it', () => {
    renderInApp('/search?q=мал');
    expect(searched()).toEqual(['мал']);
    act(() => {
      window.history.pushState(null, '', '/search?q=манго');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(field().value).toBe('манго');
    expect(searched()).toEqual(['мал', 'манго']);
  });
});
