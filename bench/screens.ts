// `npx tsx bench/screens.ts` (after `npm run build`; issue 33): does this build look like a base
// commit, pixel for pixel? Each of the census's routes (tests/e2e/census-routes.ts) at 390 and
// 1280 px wide, light and dark, full page with the cookie notice up, and the states that show
// buttons: the basket with a line (its page, the dock's total), the open menu, the «Товар
// закончился» dialog, the pointer over controls and the keyboard's focus ring. Both builds run as
// `npm start` does (`host/main.ts`, its own stub reseeded), one Chromium shoots both; photos are
// masked (their decoding differs from run to run) and motion is reduced (the home page's slides
// stand still), so what differs is the markup's and the CSS's doing. Chromium sometimes draws a
// carousel card's rounded corner one shade off in a viewport shot, the base beside itself too: a
// pair that differs is shot again, up to TRIES times, and counts as differing only if no try
// matched.
//   SCREENS_BASE (default 155aace): the commit compared against, checked out into a temporary
//   worktree with its own `npm ci` and build; SCREENS_BASE_ROOT=DIR uses a checkout already built;
//   SCREENS_THIS_ROOT=DIR shoots another built checkout instead of this one (the base beside
//   itself shows what differs from run to run); SCREENS_ONLY=REGEX shoots only the shots named so.
// Writes each differing pair and their diff to reports/screens/ and a summary to
// reports/screens.json; exits with 1 when any shot differs.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { CENSUS_ROUTES, SOLD_OUT } from '../tests/e2e/census-routes.ts';
import { REPO_ROOT } from '../tests/e2e/nginx-recipe.ts';
import { visitorWithBasket } from '../tests/e2e/visitor-cookies.ts';
import { launchChromium } from './lib/browsers.ts';
import { runBench } from './lib/main.ts';
import { baseCheckout, startShopChild } from './lib/shop.ts';

const BASE = process.env.SCREENS_BASE ?? '155aace';
const OUT_DIR = path.join(REPO_ROOT, 'reports', 'screens');
const WIDTHS = [390, 1280];
/** Shots of a pair taken before a difference counts (see the loop below). */
const TRIES = 4;
const THEMES = ['light', 'dark'] as const;
/** SCREENS_ONLY=REGEX: only the shots whose name matches (a second look at a difference). */
const ONLY = process.env.SCREENS_ONLY ? new RegExp(process.env.SCREENS_ONLY) : undefined;

interface Shot {
  name: string;
  route: string;
  /** A visitor with a line of product 7 in the basket. */
  basket?: boolean;
  /** What brings the state about once the page has loaded. */
  act?: (page: Page) => Promise<void>;
  /** The viewport alone, not the full page (a state that lives in it: a dialog, a hover). */
  viewportOnly?: boolean;
}

const SHOTS: Shot[] = [
  ...CENSUS_ROUTES.map((route) => ({ name: route, route })),
  { name: 'basket /order', route: '/order', basket: true },
  { name: 'basket /', route: '/', basket: true },
  {
    name: 'menu',
    route: '/',
    basket: true,
    viewportOnly: true,
    act: async (page) => {
      await page.getByRole('button', { name: 'Меню' }).click();
      await page.locator('[role="menu"]:popover-open').waitFor();
    },
  },
  {
    name: 'sold-out dialog',
    route: SOLD_OUT,
    viewportOnly: true,
    act: async (page) => {
      await page.getByRole('button', { name: 'Недоступно' }).first().click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  ...(
    [
      ['link', 'Каталог'],
      ['button', 'В корзину'],
      ['link', 'Подробнее'],
      ['button', 'Продолжить'],
      ['button', 'Переключить тему'],
      ['button', 'Найти'],
    ] as const
  ).map(([role, name]): Shot => ({
    name: `hover ${name}`,
    route: '/',
    viewportOnly: true,
    act: async (page) => {
      const control = page.getByRole(role, { name, exact: true }).first();
      await control.scrollIntoViewIfNeeded();
      await control.hover();
    },
  })),
  {
    name: 'hover carousel arrow',
    route: '/',
    viewportOnly: true,
    act: async (page) => {
      const next = page.getByRole('button', { name: 'Прокрутить вперёд' }).first();
      await next.scrollIntoViewIfNeeded();
      await next.hover({ force: true });
    },
  },
  ...[1, 2, 3, 4, 5].map((presses): Shot => ({
    name: `focus after ${presses} Tab`,
    route: '/',
    basket: true,
    viewportOnly: true,
    act: async (page) => {
      for (let press = 0; press < presses; press += 1) await page.keyboard.press('Tab');
    },
  })),
  {
    name: 'focus В корзину',
    route: '/section/1',
    viewportOnly: true,
    act: async (page) => {
      await page.getByRole('button', { name: 'В корзину' }).first().focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
    },
  },
];

/** `name=value; name=value` as the context's cookies for `url`. */
function cookiesOf(header: string, url: string) {
  return header
    .split('; ')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
}

async function shoot(
  browser: Browser,
  front: string,
  shot: Shot,
  width: number,
  theme: (typeof THEMES)[number],
): Promise<Buffer> {
  const context = await browser.newContext({
    baseURL: front,
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
      (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
      (route) => route.abort('blockedbyclient'),
    );
    const cookies: { name: string; value: string; url: string }[] = [
      { name: 'theme', value: theme, url: front },
    ];
    if (shot.basket) cookies.push(...cookiesOf(await visitorWithBasket(front, ['7']), front));
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(shot.route);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.waitForLoadState('networkidle');
    if (shot.act) await shot.act(page);
    return await page.screenshot({
      fullPage: !shot.viewportOnly,
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
  const a = PNG.sync.read(base);
  const b = PNG.sync.read(mine);
  if (a.width !== b.width || a.height !== b.height) return { pixels: -1 };
  const diff = new PNG({ width: a.width, height: a.height });
  const pixels = pixelmatch(a.data, b.data, diff.data, a.width, a.height, {
    threshold: 0,
    includeAA: true,
  });
  return { pixels, diff: PNG.sync.write(diff) };
}

await runBench(async (atExit) => {
  const baseRoot = process.env.SCREENS_BASE_ROOT ?? (await baseCheckout(BASE, atExit));
  const baseShop = await startShopChild(atExit, {}, baseRoot);
  const thisShop = await startShopChild(atExit, {}, process.env.SCREENS_THIS_ROOT ?? REPO_ROOT);
  const browser = await launchChromium();
  atExit(() => browser.close());
  await rm(OUT_DIR, { recursive: true, force: true });
  await mkdir(OUT_DIR, { recursive: true });

  const results: { shot: string; width: number; theme: string; pixels: number; tries: number }[] =
    [];
  for (const shot of SHOTS.filter((one) => !ONLY || ONLY.test(one.name))) {
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const label = `${shot.name} ${width} ${theme}`;
        let pixels = -2;
        let tries = 0;
        try {
          let base: Buffer;
          let mine: Buffer;
          let result: ReturnType<typeof compare>;
          // A shot of the viewport sometimes draws a card's rounded corner a shade off (the base
          // beside itself too): a difference counts when it stays through every try.
          do {
            tries += 1;
            base = await shoot(browser, baseShop.url, shot, width, theme);
            mine = await shoot(browser, thisShop.url, shot, width, theme);
            result = compare(base, mine);
            pixels = result.pixels;
          } while (pixels !== 0 && tries < TRIES);
          if (pixels !== 0) {
            const file = label.replace(/[^\p{L}\p{N}]+/gu, '_');
            await writeFile(path.join(OUT_DIR, `${file}.base.png`), base);
            await writeFile(path.join(OUT_DIR, `${file}.this.png`), mine);
            if (result.diff) await writeFile(path.join(OUT_DIR, `${file}.diff.png`), result.diff);
          }
        } catch (error) {
          console.log(`${label}: could not shoot (${(error as Error).message.split('\n')[0]})`);
        }
        results.push({ shot: shot.name, width, theme, pixels, tries });
        const verdict =
          pixels === 0
            ? `same${tries > 1 ? ` (try ${tries})` : ''}`
            : pixels === -1
              ? 'SIZE DIFFERS'
              : pixels === -2
                ? 'NOT SHOT'
                : `${pixels} px differ`;
        console.log(`${label}: ${verdict}`);
      }
    }
  }
  const differing = results.filter((result) => result.pixels !== 0);
  const failed = differing.length > 0;
  await writeFile(
    path.join(REPO_ROOT, 'reports', 'screens.json'),
    `${JSON.stringify({ base: BASE, shots: results.length, differing, results }, null, 2)}\n`,
  );
  console.log(
    `\n${results.length} shots beside ${BASE}: ${results.length - differing.length} the same, ${differing.length} differ${failed ? ` (reports/screens/)` : ''}`,
  );
  return !failed;
});
