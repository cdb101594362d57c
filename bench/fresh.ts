// `npm run bench:fresh` (issue 41; the docs say what it measures): the recipe (nginx and two
// instances) in front of the stub, the change hook on, and three figures.
//   1. From a change to the last variant renewed: a product's price changed in the backend and
//      told by the hook, then every variant (2 themes × notice on and off × br, gzip, none) of
//      every page that shows it polled through nginx until it shows the new price: p50 and p99.
//   2. The hit ratio under steady shoppers with one change a second: once every page and variant
//      has been asked for, shoppers browse the whole catalogue (pages and variants weighted as
//      shoppers come), and each second a product's price changes and is told; nginx's
//      X-Cache-Status of the shoppers' answers, with the page lifetime of today
//      (PAGE_CACHE_SECONDS=60) and of a shop that the hook keeps fresh (3600).
//   3. What 1,000 hooks with a wrong signature cost: their time through nginx, and the CPU time
//      of the instances and of nginx's workers while they come.
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, fetch as fetchFrom } from 'undici';
import {
  HOOK_SECRET,
  hookBody,
  postHook,
  priceShown,
  VARIANTS,
  type Variant,
  variantHeaders,
} from '../tests/e2e/change-hooks.ts';
import { type RecipeInFront, startRecipeInFront } from '../tests/e2e/nginx-recipe.ts';
import { spawnStub } from '../tests/stub/stub-process.ts';
import { runBench } from './lib/main.ts';
import { loopbackAddress } from './lib/visitor.ts';
import { allMet, ms, row, targetTable, writeReport } from './lib/report.ts';
import { requireBuild } from './lib/shop.ts';
import { percentile, tally } from './lib/stats.ts';

const CHANGES = Number(process.env.BENCH_FRESH_CHANGES ?? 30);
const TRAFFIC_SECONDS = Number(process.env.BENCH_FRESH_SECONDS ?? 60);
/** Pages warmed at once before the steady traffic (each in its 12 variants). */
const WARM_PAGES_AT_ONCE = 4;
const SHOPPERS = 8;
const BAD_HOOKS = 1000;
const TARGET_P99_MS = 2000;
const TARGET_HIT_RATIO = 0.95;
/**
 * How often each variant is polled for the new price: the figure is late by at most this. At
 * 10 ms, the 60-72 pollers of a change were most of the machine's work (some 4,000 pages a
 * second through nginx, each read whole), and the renewal they timed waited for them.
 */
const POLL_MS = 100;
/** A variant that is not renewed by then counts as never renewed. */
const GIVE_UP_MS = 30_000;

interface Product {
  id: number;
  name: string;
  price: number | null;
}

/** The recipe in front of the stub, and the stub's own address (its controls, its API). */
type FreshRecipe = RecipeInFront & { backendUrl: string };

/** What the shop's stub has: its products, sections and the searches shoppers make. */
interface Catalogue {
  products: Product[];
  sectionOf: Map<number, number>;
  sections: number[];
  selections: { id: number; products: number[] }[];
  searches: string[];
}

/**
 * fetch from a loopback address of its own (127.0.0.2 and up), as visitor `visitor`. nginx holds
 * searches to 10 a second per address, as it should for a shopper: the bench's 60-72 pollers and
 * its shoppers behind one address would be held back and refused as one, and the figures would
 * time that limit.
 */
function fetchAs(visitor: number) {
  const dispatcher = new Agent({ localAddress: loopbackAddress(visitor) });
  return (url: string, headers: Record<string, string>) => fetchFrom(url, { headers, dispatcher });
}

async function json<T>(url: string): Promise<T> {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return (await answer.json()) as T;
}

async function readCatalogue(api: string): Promise<Catalogue> {
  const roots = await json<{ id: number }[]>(`${api}/catalog/section_root`);
  const sections: number[] = [];
  const products = new Map<number, Product>();
  const sectionOf = new Map<number, number>();
  const walk = async (id: number) => {
    sections.push(id);
    const section = await json<{ children: { id: number }[]; products: Product[] }>(
      `${api}/catalog/section_retrieve/${id}`,
    );
    for (const product of section.products) {
      products.set(product.id, product);
      sectionOf.set(product.id, id);
    }
    for (const child of section.children) await walk(child.id);
  };
  for (const root of roots) await walk(root.id);
  const selections = (
    await json<{ id: number; products: { id: number }[] }[]>(`${api}/catalog/selections`)
  ).map((selection) => ({ id: selection.id, products: selection.products.map((p) => p.id) }));
  const searches = ['малина', 'клубника', 'черника', 'варенье', 'морс', 'саженец'];
  return { products: [...products.values()], sectionOf, sections, selections, searches };
}

const searchPage = (q: string) => `/search?q=${encodeURIComponent(q)}`;

/** The pages that show product `id`: its own, its section's, its selections', home, a search. */
function pagesShowing(catalogue: Catalogue, product: Product): string[] {
  const pages = ['/', `/product/${product.id}`, `/section/${catalogue.sectionOf.get(product.id)}`];
  for (const selection of catalogue.selections) {
    if (selection.products.includes(product.id)) pages.push(`/selection/${selection.id}`);
  }
  pages.push(searchPage(product.name.split(/[\s,«]/)[0]?.toLowerCase() ?? product.name));
  return pages;
}

async function setPrice(recipe: FreshRecipe, id: number, price: number): Promise<void> {
  const answer = await fetch(`${recipe.backendUrl}__control/state`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ product: { id, price } }),
  });
  if (!answer.ok) throw new Error(`price of ${id}: ${answer.status}`);
}

/** Every page shoppers come to (shopperRequest's), once each. */
function everyPage(catalogue: Catalogue): string[] {
  return [
    '/',
    '/catalog',
    ...catalogue.sections.map((id) => `/section/${id}`),
    ...catalogue.selections.map(({ id }) => `/selection/${id}`),
    ...catalogue.products.map(({ id }) => `/product/${id}`),
    ...catalogue.searches.map(searchPage),
  ];
}

/** Every variant of `pages`, through nginx, until each is kept. */
async function keep(front: string, pages: string[]): Promise<void> {
  await Promise.all(
    pages.flatMap((page) =>
      VARIANTS.map(async (variant, index) => {
        const get = fetchAs(index);
        for (let tries = 0; tries < 50; tries += 1) {
          const answer = await get(`${front}${page}`, variantHeaders(variant));
          await answer.arrayBuffer();
          if (answer.headers.get('x-cache-status') === 'HIT') return;
        }
      }),
    ),
  );
}

/**
 * Changes the product's price and tells the shop; resolves with the milliseconds from the hook's
 * sending to the last variant of its pages seen with the new price (Infinity: not within GIVE_UP).
 */
async function timeOneChange(
  recipe: FreshRecipe,
  catalogue: Catalogue,
  product: Product,
  price: number,
): Promise<number> {
  const pages = pagesShowing(catalogue, product);
  const shown = priceShown(price);
  await setPrice(recipe, product.id, price);
  const sent = performance.now();
  const told = await postHook(recipe.url, hookBody({ products: [product.id] }), HOOK_SECRET);
  if (told.status !== 202) throw new Error(`the hook: ${told.status} ${told.detail}`);
  const seenAt = await Promise.all(
    pages.flatMap((page, pageIndex) =>
      VARIANTS.map(async (variant, index) => {
        const get = fetchAs(pageIndex * VARIANTS.length + index);
        // nginx answers 304 from its copy while the copy is the one already read: a poll costs
        // a few headers until the page is renewed.
        let etag: string | null = null;
        while (performance.now() - sent < GIVE_UP_MS) {
          const headers = variantHeaders(variant);
          const answer = await get(
            `${recipe.url}${page}`,
            etag ? { ...headers, 'If-None-Match': etag } : headers,
          );
          const html = await answer.text();
          if (answer.status !== 304) {
            if (shown.test(html)) return performance.now() - sent;
            etag = answer.headers.get('etag');
          }
          await sleep(POLL_MS);
        }
        return Infinity;
      }),
    ),
  );
  return Math.max(...seenAt);
}

/** The `index`th of `items`, counted round. */
function nth<T>(items: T[], index: number): T {
  const item = items[index % items.length];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
}

/** Picks by weight: `[[weight, value], …]`. */
function weighted<T>(choices: [number, T][]): T {
  const total = choices.reduce((sum, [weight]) => sum + weight, 0);
  let pick = Math.random() * total;
  for (const [weight, value] of choices) {
    pick -= weight;
    if (pick <= 0) return value;
  }
  return nth(choices, choices.length - 1)[1];
}

/** A page and variant as shoppers come: the home page most, products next, variants as set. */
function shopperRequest(catalogue: Catalogue): { page: string; variant: Variant } {
  const any = <T>(items: T[]) => nth(items, Math.floor(Math.random() * items.length));
  const page = weighted<() => string>([
    [25, () => '/'],
    [10, () => '/catalog'],
    [20, () => `/section/${any(catalogue.sections)}`],
    [5, () => `/selection/${any(catalogue.selections).id}`],
    [30, () => `/product/${any(catalogue.products).id}`],
    [10, () => searchPage(any(catalogue.searches))],
  ])();
  const variant: Variant = {
    theme: weighted([
      [70, 'light' as const],
      [30, 'dark' as const],
    ]),
    accepted: weighted([
      [40, false],
      [60, true],
    ]),
    encoding: weighted([
      [75, 'br' as const],
      [22, 'gzip' as const],
      [3, 'identity' as const],
    ]),
  };
  return { page, variant };
}

/**
 * SHOPPERS shoppers for `seconds`, one product's price changed and told each second; the cache
 * statuses of the shoppers' answers (none of the instances' renewals).
 */
async function steadyTraffic(recipe: FreshRecipe, catalogue: Catalogue, seconds: number) {
  const statuses: string[] = [];
  const end = performance.now() + seconds * 1000;
  const shoppers = Array.from({ length: SHOPPERS }, async (_, shopper) => {
    const get = fetchAs(shopper);
    while (performance.now() < end) {
      const { page, variant } = shopperRequest(catalogue);
      const answer = await get(`${recipe.url}${page}`, variantHeaders(variant));
      await answer.arrayBuffer();
      statuses.push(
        answer.ok ? (answer.headers.get('x-cache-status') ?? 'none') : `${answer.status}`,
      );
    }
  });
  let changes = 0;
  const changer = (async () => {
    while (performance.now() < end) {
      const product = nth(catalogue.products, changes);
      await setPrice(recipe, product.id, 100 + ((changes * 7) % 4000));
      await postHook(recipe.url, hookBody({ products: [product.id] }), HOOK_SECRET);
      changes += 1;
      await sleep(1000);
    }
  })();
  await Promise.all([...shoppers, changer]);
  const counts = tally(statuses);
  const fromCache = ['HIT', 'STALE', 'UPDATING', 'REVALIDATED'];
  const cached = fromCache.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  return {
    views: statuses.length,
    changes,
    statuses: counts,
    hitRatio: (counts.HIT ?? 0) / statuses.length,
    fromCacheRatio: cached / statuses.length,
  };
}

/** utime + stime of a process, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** nginx's worker processes: the master's children. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => {
      try {
        return (
          readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid)
        );
      } catch {
        return false;
      }
    });
}

async function badHooks(recipe: FreshRecipe) {
  const pids = {
    instances: recipe.shops.map((shop) => shop.child.pid ?? 0),
    nginx: childrenOf(recipe.pid),
  };
  const cpu = () => ({
    instances: pids.instances.reduce((sum, pid) => sum + cpuMs(pid), 0),
    nginx: pids.nginx.reduce((sum, pid) => sum + cpuMs(pid), 0),
  });
  const before = cpu();
  const started = performance.now();
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < BAD_HOOKS) {
        next += 1;
        const answer = await postHook(
          recipe.url,
          hookBody({ products: [7] }),
          'a-secret-that-is-not-the-shops-at-all',
        );
        statuses.push(answer.status);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const after = cpu();
  return {
    wallMs,
    statuses: tally(statuses.map(String)),
    instancesCpuMs: after.instances - before.instances,
    nginxCpuMs: after.nginx - before.nginx,
  };
}

/**
 * The stub in a process of its own, as a backend is, and the recipe in front of it. In this
 * process its answers would wait behind the bench's own pollers and shoppers, and the figures
 * would time the bench.
 */
async function startFresh(atExit: (stop: () => Promise<unknown>) => void, lifetime: number) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-fresh-'));
  const stub = await spawnStub(path.join(dir, 'db.json'), ['--controls']).catch(
    async (error: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw error;
    },
  );
  const stopStub = async () => {
    await stub.stop();
    await rm(dir, { recursive: true, force: true });
  };
  const front = await startRecipeInFront(stub.url.replace(/\/$/, ''), {
    CHANGE_HOOK_SECRET: HOOK_SECRET,
    PAGE_CACHE_SECONDS: String(lifetime),
    CATALOG_CACHE_FRESH_MS: String(lifetime * 1000),
  }).catch(async (error: unknown) => {
    await stopStub();
    throw error;
  });
  const recipe: FreshRecipe = { ...front, backendUrl: stub.url };
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await front.close();
      await stopStub();
    })());
  atExit(close);
  return { recipe, close };
}

await runBench(async (atExit) => {
  requireBuild();

  // 1. From a change to the last variant renewed.
  const { recipe, close } = await startFresh(atExit, 3600);
  const catalogue = await readCatalogue(`${recipe.backendUrl}api`);
  const measured = catalogue.products.filter(
    (product) =>
      product.price !== null && catalogue.selections.some((s) => s.products.includes(product.id)),
  );
  const renewedMs: number[] = [];
  for (let change = 0; change < CHANGES; change += 1) {
    const product = nth(measured, change);
    await keep(recipe.url, pagesShowing(catalogue, product));
    const took = await timeOneChange(recipe, catalogue, product, 5000 + change);
    renewedMs.push(took);
    process.stdout.write(`change ${change + 1}/${CHANGES}: ${Math.round(took)} ms\n`);
  }
  const p50 = percentile(renewedMs, 0.5);
  const p99 = percentile(renewedMs, 0.99);

  // 3. 1,000 bad hooks, on the same recipe (its pages kept).
  const bad = await badHooks(recipe);
  await close();

  // 2. The hit ratio under steady shoppers, one change a second, with each page lifetime.
  const underTraffic = async (lifetime: number) => {
    const run = await startFresh(atExit, lifetime);
    // A shop that has been open a while: nginx keeps every page and variant shoppers ask for.
    // The first view of each is a miss under any lifetime, and in a one-minute run those would
    // be most of the misses (461 of 3,313 views), which says nothing of what changes cost.
    const pages = everyPage(catalogue);
    for (let start = 0; start < pages.length; start += WARM_PAGES_AT_ONCE) {
      await keep(run.recipe.url, pages.slice(start, start + WARM_PAGES_AT_ONCE));
    }
    const seen = await steadyTraffic(run.recipe, catalogue, TRAFFIC_SECONDS);
    await run.close();
    return seen;
  };
  const short = await underTraffic(60);
  const long = await underTraffic(3600);
  const traffic = { 60: short, 3600: long };
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
  const allRefused = bad.statuses['401'] === BAD_HOOKS;
  const targets = [
    row(
      `change → last variant renewed, p50 (${renewedMs.length} changes, ${VARIANTS.length} variants of 5–6 pages each)`,
      ms(p50),
    ),
    row(
      'change → last variant renewed, p99',
      ms(p99),
      `≤ ${TARGET_P99_MS} ms`,
      p99 <= TARGET_P99_MS,
    ),
    row(
      `hit ratio, PAGE_CACHE_SECONDS=3600, ${SHOPPERS} shoppers, a change a second (${long.views} views, ${long.changes} changes)`,
      percent(long.hitRatio),
      `≥ ${TARGET_HIT_RATIO * 100} %`,
      long.hitRatio >= TARGET_HIT_RATIO,
    ),
    row(
      'served from nginx’s copy (HIT, STALE, UPDATING), PAGE_CACHE_SECONDS=3600',
      percent(long.fromCacheRatio),
    ),
    row(
      `hit ratio, PAGE_CACHE_SECONDS=60 (today’s), same traffic (${short.views} views)`,
      percent(short.hitRatio),
    ),
    row('served from nginx’s copy, PAGE_CACHE_SECONDS=60', percent(short.fromCacheRatio)),
    row(
      `${BAD_HOOKS} hooks with a wrong signature: all refused (401)`,
      JSON.stringify(bad.statuses),
      'all 401',
      allRefused,
    ),
    row(`${BAD_HOOKS} bad hooks: time through nginx, 20 at once`, ms(bad.wallMs)),
    row(
      `${BAD_HOOKS} bad hooks: CPU of both instances (each hears each hook twice or once)`,
      ms(bad.instancesCpuMs),
    ),
    row(`${BAD_HOOKS} bad hooks: CPU of nginx's workers`, ms(bad.nginxCpuMs)),
  ];
  await writeReport(
    'bench-fresh',
    'Freshness: the change hook',
    { renewedMs, p50, p99, traffic, badHooks: bad },
    [
      targetTable(targets),
      '',
      `Shoppers' cache statuses, PAGE_CACHE_SECONDS=3600: ${JSON.stringify(long.statuses)}; =60: ${JSON.stringify(short.statuses)}.`,
    ].join('\n'),
  );
  return allMet(targets);
});
