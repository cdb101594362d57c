// The catalogue in Chromium on the production build: browsing from home down to a product and
// back through the breadcrumbs, the 404 redirects, the home carousel's interval and arrows, the
// error state's retry, and phone widths without sideways scrolling or layout jumps.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import {
  baseUrl,
  control,
  hydrated,
  openPage,
  reactTurns,
  screenshot,
  setupBrowser,
} from './browser.ts';
import { apiPath, holdAnswers } from './held-answers.ts';

const browser = setupBrowser();

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };

async function clearFaults(): Promise<void> {
  const response = await fetch(`${baseUrl()}/__control/faults`, { method: 'DELETE' });
  expect(response.ok).toBe(true);
}

// A fault left by a failed test must not leak into the next one.
afterEach(clearFaults);

function heading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

function breadcrumbs(page: Page) {
  return page.getByRole('navigation', { name: 'Навигационная цепочка' });
}

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Scrolls to the bottom and back, so lazy images and late blocks have loaded. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
}

describe('browsing the catalogue', () => {
  test('home → a selection → a section → a product, and back through the breadcrumbs', async () => {
    const page = await openPage(browser(), '/');
    await expect.poll(() => page.title()).toBe('Ягодная лавка — Главная');

    await page.getByRole('link', { name: 'Сезонные хиты', exact: true }).click();
    await heading(page, 'Сезонные хиты').waitFor();
    expect(pathOf(page)).toBe('/selection/1');
    expect(await breadcrumbs(page).innerText()).toMatch(/Главная\s*›\s*Сезонные хиты/);

    await page
      .getByRole('link', { name: /^Клубника/ })
      .first()
      .click();
    await heading(page, 'Клубника').waitFor();
    expect(pathOf(page)).toBe('/section/14');
    await expect.poll(() => page.title()).toBe('Ягодная лавка — Клубника');

    await page.getByRole('link', { name: 'Клубника садовая', exact: true }).click();
    await heading(page, 'Клубника садовая').waitFor();
    expect(pathOf(page)).toBe('/product/6');
    await expect.poll(() => page.title()).toBe('Ягодная лавка — Клубника садовая');
    const card = page.getByTestId('product-card');
    await expect.poll(() => card.innerText()).toMatch(/590\s₽ \/ кг/);
    expect(await card.innerText()).toMatch(/в наличии 40 кг/);

    // Back up the path, one crumb at a time.
    await breadcrumbs(page).getByRole('link', { name: 'Клубника', exact: true }).click();
    await heading(page, 'Клубника').waitFor();
    expect(pathOf(page)).toBe('/section/14');

    await breadcrumbs(page).getByRole('link', { name: 'Садовые ягоды' }).click();
    await heading(page, 'Садовые ягоды').waitFor();
    expect(pathOf(page)).toBe('/section/8');

    await breadcrumbs(page).getByRole('link', { name: 'Ягоды', exact: true }).click();
    await heading(page, 'Ягоды').waitFor();
    expect(pathOf(page)).toBe('/section/1');

    await breadcrumbs(page).getByRole('link', { name: 'Главная' }).click();
    await page.getByRole('link', { name: 'Сезонные хиты', exact: true }).waitFor();
    expect(pathOf(page)).toBe('/');
  });

  test('the description meta is the page’s own: after hydration, and after each navigation', async () => {
    const description = (page: Page) =>
      page.locator('meta[name="description"]').getAttribute('content');
    const product = /^Малина: 890\s₽ \/ кг, в наличии 15 кг\. Ягодная лавка, Вологда\.$/;
    const page = await openPage(browser(), '/product/7');
    // Hydrated, and the app's effects have run: what the server wrote is still there.
    await reactTurns(page);
    expect(await description(page)).toMatch(product);
    expect(await page.title()).toBe('Ягодная лавка — Малина');

    await breadcrumbs(page).getByRole('link', { name: 'Малина и ежевика' }).click();
    await heading(page, 'Малина и ежевика').waitFor();
    await expect
      .poll(() => description(page))
      .toMatch(/^Малина и ежевика в магазине «Ягодная лавка»: \d+ товар/);

    await page.locator('main a[href="/product/7"]').first().click();
    await heading(page, 'Малина').waitFor();
    await expect.poll(() => description(page)).toMatch(product);

    await breadcrumbs(page).getByRole('link', { name: 'Главная' }).click();
    await expect.poll(() => page.title()).toBe('Ягодная лавка — Главная');
    expect(await description(page)).toBe(
      'Ягодная лавка — свежие ягоды с доставкой по городу и самовывозом',
    );
  });

  test('an unknown product id lands on the 404 page', async () => {
    const page = await openPage(browser(), '/product/99999', {
      // The API's 404 is what sends the shopper on; Chromium logs it as a failed resource.
      allowConsoleErrors: [/status of 404/],
    });
    await page.getByRole('heading', { name: 'Страница не найдена' }).waitFor();
    expect(pathOf(page)).toBe('/product-404/99999');
    await page.locator('main').getByRole('link', { name: 'На главную' }).waitFor();

    // Replaced, not pushed: Back leaves the shop's 404 rather than bouncing into it again.
    await page.goBack();
    expect(pathOf(page)).not.toBe('/product/99999');
  });

  test('a section id that is not a number goes to /section-404/{id} without an API call', async () => {
    const page = await openPage(browser(), '/');
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/catalog/section_')) calls.push(request.url());
    });
    await page.evaluate(() => {
      window.history.pushState(null, '', '/section/abc');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByRole('heading', { name: 'Страница не найдена' }).waitFor();
    expect(pathOf(page)).toBe('/section-404/abc');
    expect(calls).toEqual([]);
  });

  test('an out-of-stock product opens the Товар закончился dialog, and Ok closes it', async () => {
    const page = await openPage(browser(), '/product/5');
    await heading(page, 'Клубника «Азия»').waitFor();
    const card = page.getByTestId('product-card');
    expect(await card.innerText()).toMatch(/закончилось/);
    await card.getByRole('button', { name: 'Недоступно' }).click();
    const dialog = page.getByRole('dialog', { name: 'Товар закончился' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/цена товара может измениться/);
    await dialog.getByRole('button', { name: 'Ok' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('loading and errors', () => {
  test('a failed section load shows a Russian message; Повторить then shows the section', async () => {
    await control('faults', { path: '/api/catalog/section_retrieve/1', status: 500 });
    const page = await openPage(browser(), '/section/1', {
      allowConsoleErrors: [/status of 500/],
    });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Не удалось загрузить данные/);

    await clearFaults();
    await alert.getByRole('button', { name: 'Повторить' }).click();
    await heading(page, 'Ягоды').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  test('while a section loads, skeletons hold its place; the page does not jump', async () => {
    const page = await openPage(browser(), '/catalog', { viewport: PHONE });
    const section = await holdAnswers(page, apiPath('/api/catalog/section_retrieve/1'));
    // Shifts from here on (the catalogue's own load is not this test's), as CLS counts them:
    // the page changing right after the click is the click's doing, not a jump.
    await page.evaluate(() => {
      const state = window as unknown as { shift: number; shifted: string[] };
      state.shift = 0;
      state.shifted = [];
      type Rect = { x: number; y: number; height: number };
      type Source = { node?: Node; previousRect: Rect; currentRect: Rect };
      type Shift = { value: number; startTime: number; sources: Source[] };
      const where = (rect: Rect) => `${rect.x},${rect.y} h${rect.height}`;
      new PerformanceObserver((list) => {
        const entries = list.getEntries() as unknown as (Shift & { hadRecentInput: boolean })[];
        for (const entry of entries) {
          if (entry.hadRecentInput) continue;
          state.shift += entry.value;
          const moved = entry.sources.map(
            (source) =>
              `${(source.node as Element | undefined)?.className ?? source.node?.nodeName} ` +
              `${where(source.previousRect)} -> ${where(source.currentRect)}`,
          );
          state.shifted.push(
            `${entry.value.toFixed(3)} at ${Math.round(entry.startTime)} ms: ${moved.join('; ')}`,
          );
        }
      }).observe({ type: 'layout-shift' });
    });
    // A navigation in the browser: the first page comes with its data from the server.
    await page.locator('main a[href="/section/1"]').first().click();
    await page.getByLabel('Загрузка').first().waitFor();
    await section.asked;
    // The screen only: a full-page capture lays the page out at its full height for a moment,
    // which a loaded machine can paint and the observer then counts as a shift of ~0.38.
    await screenshot(page, 'catalog section loading 390', { fullPage: false });
    section.release();
    await heading(page, 'Ягоды').waitFor();
    await page.waitForLoadState('networkidle');
    const { shift, shifted } = await page.evaluate(() => {
      const state = window as unknown as { shift: number; shifted: string[] };
      return { shift: state.shift, shifted: state.shifted };
    });
    // Google's "good" cumulative layout shift is below 0.1.
    expect(shift, shifted.join('\n')).toBeLessThan(0.1);
  });

  test('every catalogue image has its size set, and those below the fold load lazily', async () => {
    const page = await openPage(browser(), '/', { viewport: PHONE });
    await page.getByTestId('product-card').first().waitFor();
    // Every block of the page has drawn its cards (each is its own call).
    await expect.poll(() => page.locator('main img').count()).toBeGreaterThan(20);
    await page.waitForLoadState('networkidle');
    const images = await page.locator('main img').evaluateAll((nodes) =>
      (nodes as HTMLImageElement[]).map((img) => ({
        sized: img.hasAttribute('width') && img.hasAttribute('height'),
        alt: img.hasAttribute('alt'),
        lazy: img.loading === 'lazy',
        below: img.getBoundingClientRect().top > window.innerHeight,
      })),
    );
    expect(images.length).toBeGreaterThan(20);
    expect(images.filter((img) => !img.sized || !img.alt)).toEqual([]);
    expect(images.filter((img) => img.below && !img.lazy)).toEqual([]);
  });
});

describe('the home carousel', () => {
  test('moves on to the next slide 6 seconds after the last change, not sooner', async () => {
    const page = await openPage(browser(), '/');
    // The page's clock is the test's: time moves only when the test moves it, so the check
    // does not depend on how busy the machine is. A reload puts the fake clock under the app.
    await page.clock.install();
    await page.reload();
    await hydrated(page);
    const carousel = page.getByRole('region', { name: 'Новости магазина' });
    const tabs = carousel.getByRole('tab');
    await carousel.getByTestId('home-slide').first().waitFor();
    // Until it first moves, the carousel stands still, without its engine (or its indicators).
    expect(await tabs.count()).toBe(0);
    // Stop time (a jump well ahead of the page's clock, which cannot be in its past): the first
    // interval runs out on the way, so the engine loads and turns to the second slide.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
    const selected = () =>
      tabs.evaluateAll((nodes) => nodes.findIndex((node) => node.hasAttribute('data-active')));
    await expect.poll(selected).toBe(1);
    // Leaving the carousel restarts its full interval at this paused moment.
    await carousel.hover();
    await page.mouse.move(5, 5);
    await reactTurns(page);
    const before = await selected();
    expect(await tabs.count()).toBeGreaterThan(2);

    await page.clock.runFor(5_999);
    await reactTurns(page);
    expect(await selected()).toBe(before);

    await page.clock.runFor(1);
    await expect.poll(selected).toBe((before + 1) % (await tabs.count()));
  });

  test('keeps the keyboard focus on its arrow while its engine arrives, and turns', async () => {
    const page = await openPage(browser(), '/', { viewport: { width: 1280, height: 800 } });
    const carousel = page.getByRole('region', { name: 'Новости магазина' });
    await carousel.getByTestId('home-slide').first().waitFor();
    const next = carousel.getByRole('button', { name: 'Следующий слайд' });
    await next.focus();
    await page.keyboard.press('Enter');
    const tabs = carousel.getByRole('tab');
    await expect
      .poll(() =>
        tabs.evaluateAll((nodes) => nodes.findIndex((n) => n.hasAttribute('data-active'))),
      )
      .toBe(1);
    expect(await next.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  test('grows to show a long slide whole on a small phone, every slide as tall as the tallest', async () => {
    // The slides come from the test: the home page is reached in the browser, not from the server.
    const page = await openPage(browser(), '/catalog', { viewport: SMALL_PHONE });
    await page.route('**/api/content/carousel', (route) =>
      route.fulfill({
        json: [1, 2].map((id) => ({
          id,
          text:
            id === 1
              ? 'Свежая клубника с грядки каждое утро\nСобираем утром — привозим к обеду\nДоставка по городу от 300 ₽\nСамовывоз с Окружного шоссе\nСкидка на ящик'
              : 'Лесные ягоды\nВ наличии',
          image: `/media/carousel/slide-${id}.svg`,
          background: '#fde2e4',
          text_color: '#7a1f2b',
        })),
      }),
    );
    await page.locator('header a[href="/"]').first().click();
    const slides = page.getByTestId('home-slide');
    await slides.first().waitFor();
    const boxes = await slides.evaluateAll((nodes) =>
      nodes.map((slide) => {
        const text = slide.firstElementChild!;
        return {
          height: Math.round(slide.getBoundingClientRect().height),
          cut: text.scrollHeight > text.clientHeight,
        };
      }),
    );
    expect(boxes.map((box) => box.cut)).toEqual([false, false]);
    expect(boxes[0]!.height).toBeGreaterThan(240);
    expect(boxes[1]!.height).toBe(boxes[0]!.height);
  });

  test('shows its arrows only while the pointer is over it', async () => {
    const page = await openPage(browser(), '/');
    const carousel = page.getByRole('region', { name: 'Новости магазина' });
    const next = carousel.getByRole('button', { name: 'Следующий слайд' });
    // In the server's HTML from the start, shown (display) once the app runs: openPage waits for it.
    await next.waitFor({ state: 'attached' });
    const opacity = () =>
      next.evaluate((button) => Number(getComputedStyle(button.parentElement!).opacity));
    await page.mouse.move(5, 5);
    await expect.poll(opacity).toBe(0);
    await carousel.hover();
    await expect.poll(opacity).toBe(1);
    expect(await next.isVisible()).toBe(true);
    await screenshot(page, 'catalog home carousel hover 1280');
  });
});

describe('phone widths', () => {
  const paths = ['/', '/catalog', '/section/1', '/selection/1', '/product/10', '/product/1'];

  for (const viewport of [PHONE, SMALL_PHONE]) {
    test(`no sideways scrolling at ${viewport.width} px`, async () => {
      for (const path of paths) {
        const page = await openPage(browser(), path, { viewport });
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        expect({ path, overflow: await sidewaysOverflow(page) }).toEqual({ path, overflow: 0 });
        if (viewport === PHONE && path === '/') await screenshot(page, 'catalog home 390');
      }
    });
  }

  test('the dark theme renders the home page and a section', async () => {
    for (const path of ['/', '/section/1']) {
      const page = await openPage(browser(), path, { theme: 'dark', viewport: PHONE });
      await page.getByTestId('product-card').first().waitFor();
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
      await settle(page);
      await screenshot(page, `catalog dark ${path === '/' ? 'home' : 'section'} 390`);
    }
  });
});
