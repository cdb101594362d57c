// `npx tsx bench/screens.ts` (after `npm run build`; issue 33): does this build look like a base
// commit (SCREENS_BASE, default 155aace, built in a temporary worktree), pixel for pixel? Each of
// the census's routes (tests/e2e/census-routes.ts) at 390 and 1280 px wide, light and dark, full
// page with the cookie notice up, and the states that show buttons, in the viewport: the basket
// with a line (its page, the dock's total), the open menu, the «Товар закончился» dialog, the
// pointer over controls and the keyboard's focus ring. Both builds run as `npm start` does
// (`host/main.ts`, its own stub reseeded), one Chromium shoots both; photos are masked (their
// decoding differs from run to run) and motion is reduced (the home page's slides stand still),
// so what differs is the markup's and the CSS's doing. SCREENS_ONLY=REGEX shoots only the shots
// named so. Writes each differing pair and their diff to reports/screens/ and the list to
// reports/screens.json and .md; exits with 1 when any shot differs.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseCookie } from 'cookie';
import pixelmatch from 'pixelmatch';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { CENSUS_ROUTES, SOLD_OUT } from '../tests/e2e/census-routes.ts';
import { visitorWithBasket } from '../tests/e2e/visitor-cookies.ts';
import { launchChromium } from './lib/browsers.ts';
import { runBench } from './lib/main.ts';
import { writeReport } from './lib/report.ts';
import { baseCheckout, REPO_ROOT, startShopChild } from './lib/shop.ts';

const BASE = process.env.SCREENS_BASE ?? '155aace';
const ONLY = new RegExp(process.env.SCREENS_ONLY ?? '');
const OUT_DIR = path.join(REPO_ROOT, 'reports', 'screens');
/**
 * Chromium sometimes draws a carousel card's rounded corner one shade off in a viewport shot, the
 * base beside itself too: a pair is shot up to this many times, and differs only if none matched.
 */
const TRIES = 4;

interface Shot {
  name: string;
  route: string;
  /** A visitor with a line of product 7 in the basket. */
  basket?: boolean;
  /** What brings about a state that lives in the viewport, once the page has loaded. */
  act?: (page: Page) => Promise<void>;
}

const HOVERED = [
  ['link', 'Каталог'],
  ['button', 'В корзину'],
  ['link', 'Подробнее'],
  ['button', 'Продолжить'],
  ['button', 'Переключить тему'],
  ['button', 'Найти'],
  ['button', 'Прокрутить вперёд'], // the carousel's arrow, under the pointer though hidden
] as const;

const SHOTS: Shot[] = [
  ...CENSUS_ROUTES.map((route) => ({ name: route, route })),
  { name: 'basket /order', route: '/order', basket: true },
  { name: 'basket /', route: '/', basket: true },
  {
    name: 'menu',
    route: '/',
    basket: true,
    act: async (page) => {
      await page.getByRole('button', { name: 'Меню' }).click();
      await page.locator('[role="menu"]:popover-open').waitFor();
    },
  },
  {
    name: 'sold-out dialog',
    route: SOLD_OUT,
    act: async (page) => {
      await page.getByRole('button', { name: 'Недоступно' }).first().click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  ...HOVERED.map(([role, name]): Shot => ({
    name: `hover ${name}`,
    route: '/',
    act: async (page) => {
      const control = page.getByRole(role, { name, exact: true }).first();
      await control.scrollIntoViewIfNeeded();
      await control.hover({ force: true });
    },
  })),
  ...[1, 2, 3, 4, 5].map((presses): Shot => ({
    name: `focus after ${presses} Tab`,
    route: '/',
    basket: true,
    act: async (page) => {
      for (let press = 0; press < presses; press += 1) await page.keyboard.press('Tab');
    },
  })),
  {
    name: 'focus В корзину',
    route: '/section/1',
    act: async (page) => {
      await page.getByRole('button', { name: 'В корзину' }).first().focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
    },
  },
];

async function shoot(
  browser: Browser,
  url: string,
  shot: Shot,
  width: number,
  theme: 'light' | 'dark',
) {
  const context = await browser.newContext({
    baseURL: url,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    colorScheme: theme,
    reducedMotion: 'reduce',
    viewport: { width, height: 900 },
    serviceWorkers: 'block',
  });
  try {
    // Nothing leaves the machine (the news page's Telegram widget).
    await context.route(
      (where) => !['127.0.0.1', 'localhost'].includes(where.hostname),
      (route) => route.abort('blockedbyclient'),
    );
    // The basket visitor's cookies as the server set them, not URL-decoded.
    const basket = shot.basket ? await visitorWithBasket(url, ['7']) : '';
    const cookies = { theme, ...parseCookie(basket, { decode: (raw) => raw }) };
    await context.addCookies(
      Object.entries(cookies).map(([name, value = '']) => ({ name, value, url })),
    );
    const page = await context.newPage();
    await page.goto(shot.route);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.waitForLoadState('networkidle');
    await shot.act?.(page);
    return await page.screenshot({
      fullPage: !shot.act,
      animations: 'disabled',
      caret: 'hide',
      mask: [page.locator('img')],
    });
  } finally {
    await context.close();
  }
}

/** Pixels that differ at all (threshold 0), or -1 when the sizes differ. */
function compare(base: Buffer, mine: Buffer): { pixels: number; diff?: Buffer } {
  const [a, b] = [PNG.sync.read(base), PNG.sync.read(mine)];
  if (a.width !== b.width || a.height !== b.height) return { pixels: -1 };
  const diff = new PNG({ width: a.width, height: a.height });
  const options = { threshold: 0, includeAA: true };
  const pixels = pixelmatch(a.data, b.data, diff.data, a.width, a.height, options);
  return { pixels, diff: PNG.sync.write(diff) };
}

await runBench(async (atExit) => {
  const baseShop = await startShopChild(atExit, {}, await baseCheckout(BASE, atExit));
  const thisShop = await startShopChild(atExit);
  const browser = await launchChromium();
  atExit(() => browser.close());
  await rm(OUT_DIR, { recursive: true, force: true });
  await mkdir(OUT_DIR, { recursive: true });

  const results = [];
  for (const shot of SHOTS.filter(({ name }) => ONLY.test(name))) {
    for (const width of [390, 1280]) {
      for (const theme of ['light', 'dark'] as const) {
        const label = `${shot.name} ${width} ${theme}`;
        let verdict = 'same';
        let tries = 0;
        try {
          for (let differs = true; differs && tries < TRIES;) {
            tries += 1;
            const base = await shoot(browser, baseShop.url, shot, width, theme);
            const mine = await shoot(browser, thisShop.url, shot, width, theme);
            const { pixels, diff } = compare(base, mine);
            differs = pixels !== 0;
            verdict = pixels === 0 ? 'same' : pixels < 0 ? 'SIZE DIFFERS' : `${pixels} px differ`;
            const file = path.join(OUT_DIR, label.replace(/[^\p{L}\p{N}]+/gu, '_'));
            if (differs && tries === TRIES) {
              await writeFile(`${file}.base.png`, base);
              await writeFile(`${file}.this.png`, mine);
              if (diff) await writeFile(`${file}.diff.png`, diff);
            }
          }
        } catch (error) {
          verdict = `NOT SHOT (${(error as Error).message.split('\n')[0]})`;
        }
        results.push({ shot: label, verdict, tries });
        console.log(`${label}: ${verdict}${tries > 1 ? ` (try ${tries})` : ''}`);
      }
    }
  }
  const differing = results.filter(({ verdict }) => verdict !== 'same');
  const summary = `${results.length} shots beside ${BASE}: ${results.length - differing.length} the same, ${differing.length} differ${differing.length ? ' (reports/screens/)' : ''}`;
  const list = differing.map(({ shot, verdict }) => `- ${shot}: ${verdict}`);
  await writeReport(
    'screens',
    'bench/screens.ts',
    { base: BASE, results },
    [summary, ...list].join('\n'),
  );
  return differing.length === 0;
});
