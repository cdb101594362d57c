// Issue 40: the shop as an operator sees it. Debian's Prometheus runs deploy/prometheus.yml and
// deploy/alerts.yml (their targets swapped for free ports, scraped each second) over the
// recipe: nginx (deploy/nginx.conf), two instances with their /metrics, the stub behind them,
// prometheus-nginx-exporter on nginx's stub_status and mtail on its access log. A shopper buys
// in Chromium with JavaScript and again without; PromQL then shows what they did. With the stub
// stopped, the backend-failure alert goes pending. One request's id is followed from nginx's
// log line to the instance's.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setupBrowser } from './browser.ts';
import { chromiumShopper } from './engines.ts';
import {
  freePort,
  REPO_ROOT,
  type StubRecipe,
  startShopProcess,
  startStubRecipe,
} from './nginx-recipe.ts';
import { purchase } from './shopper-path.ts';

const browser = setupBrowser();
const PROMETHEUS = '/usr/bin/prometheus';
const EXPORTER = '/usr/bin/prometheus-nginx-exporter';
const MTAIL = '/usr/bin/mtail';

let recipe: StubRecipe;
let prometheus = '';
const children: ChildProcess[] = [];
let dir = '';
let stopping = false;

/** Starts a Debian tool in a process of its own, stopped (by its pid) at the end. */
function daemon(command: string, args: string[]): ChildProcess {
  if (!existsSync(command)) {
    throw new Error(
      `${command} is missing: apt-get install prometheus prometheus-nginx-exporter mtail (bash .ci/run does)`,
    );
  }
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  child.once('exit', (code) => {
    if (code && !stopping) console.error(`${command} exited (${code}): ${log}`);
  });
  children.push(child);
  return child;
}

/** The instance's metrics address, as it printed it at start. */
const metricsTarget = (output: string) => {
  const url = /Метрики: http:\/\/([\d.]+:\d+)\/metrics/.exec(output)?.[1];
  if (!url) throw new Error(`no metrics address in: ${output}`);
  return url;
};

/** A PromQL query's result: each series' labels and value. */
async function query(expr: string): Promise<{ metric: Record<string, string>; value: number }[]> {
  const answer = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await answer.json()) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
}

/** The single value of a query (NaN when it has none). */
const scalar = async (expr: string) => (await query(expr))[0]?.value ?? NaN;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'berries-prometheus-'));
  recipe = await startStubRecipe({ METRICS_PORT: '0', ACCESS_LOG: '1' });
  const [exporterPort, mtailPort, prometheusPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
  ]);
  daemon(EXPORTER, [
    `-nginx.scrape-uri=${recipe.statusUrl}`,
    `-web.listen-address=127.0.0.1:${exporterPort}`,
  ]);
  daemon(MTAIL, [
    '--progs',
    path.join(REPO_ROOT, 'deploy', 'nginx.mtail'),
    '--logs',
    recipe.accessLog,
    '--address',
    '127.0.0.1',
    '--port',
    String(mtailPort),
    '--poll_interval',
    '250ms',
  ]);
  // The files as written, with this run's targets, a second between scrapes, and a short `for:`
  // for the backend's alert (5 minutes in production).
  const shops = recipe.shops.map((shop) => `'${metricsTarget(shop.output())}'`).join(', ');
  const config = (await readFile(path.join(REPO_ROOT, 'deploy', 'prometheus.yml'), 'utf8'))
    .replaceAll('15s', '1s')
    .replace("['127.0.0.1:4001', '127.0.0.1:4002']", `[${shops}]`)
    .replace("['127.0.0.1:9113']", `['127.0.0.1:${exporterPort}']`)
    .replace("['127.0.0.1:3903']", `['127.0.0.1:${mtailPort}']`);
  const alerts = (await readFile(path.join(REPO_ROOT, 'deploy', 'alerts.yml'), 'utf8')).replace(
    /(- alert: ShopBackendFailing[\s\S]*?)for: 5m/,
    '$1for: 10m',
  );
  expect(alerts).not.toBe(await readFile(path.join(REPO_ROOT, 'deploy', 'alerts.yml'), 'utf8'));
  await writeFile(path.join(dir, 'prometheus.yml'), config);
  await writeFile(path.join(dir, 'alerts.yml'), alerts);
  daemon(PROMETHEUS, [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${prometheusPort}`,
  ]);
  prometheus = `http://127.0.0.1:${prometheusPort}`;
  // Every target scraped and up: the two instances, the exporter, mtail.
  const until = Date.now() + 60_000;
  while ((await query('up == 1').catch(() => [])).length < 4) {
    if (Date.now() > until) throw new Error(`targets not up: ${JSON.stringify(await query('up'))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

afterAll(async () => {
  stopping = true;
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
  await recipe?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Prometheus over the recipe', () => {
  test('a purchase with JavaScript: its pages by route, one order, the home page’s LCP', async () => {
    const shopper = await chromiumShopper(browser(), true, recipe.url);
    // The home page, left for another: its figures go out in the beacon as it is hidden.
    await shopper.goto('/');
    await expect
      .poll(() =>
        shopper.evaluate(
          () =>
            performance
              .getEntriesByType('resource')
              .some((entry) => /\/assets\/rum-/.test(entry.name)),
          null,
        ),
      )
      .toBe(true);
    await purchase(shopper);
    await expect.poll(() => scalar('sum(shop_orders_placed_total)')).toBe(1);
    expect(await scalar('sum(shop_orders_placed_total{via="app"})')).toBe(1);
    await expect
      .poll(() => scalar('sum(shop_rum_lcp_seconds_count{kind="home", view="load"})'))
      .toBeGreaterThanOrEqual(1);
    const routes = (
      await query('sum by (route) (shop_http_request_duration_seconds_count{handler="page"})')
    ).map(({ metric }) => metric.route);
    // The pages the browser loaded (the app shows the basket, checkout and order in place).
    expect(routes).toEqual(expect.arrayContaining(['/', '/policy', '/product/:id']));
    // Never a raw path.
    expect(routes.filter((route) => /\d/.test(route ?? ''))).toEqual([]);
  });

  test('a purchase without JavaScript: one order more, through the form', async () => {
    const shopper = await chromiumShopper(browser(), false, recipe.url);
    await purchase(shopper);
    await expect.poll(() => scalar('sum(shop_orders_placed_total)')).toBe(2);
    expect(await scalar('sum(shop_orders_placed_total{via="form"})')).toBe(1);
    expect(await scalar('sum(shop_forms_total{form="checkout", outcome="placed"})')).toBe(1);
    // The server's own calls for it, by the pact's names.
    const calls = await query('sum by (call, outcome) (shop_backend_call_duration_seconds_count)');
    const seen = calls.map(({ metric }) => `${metric.call} ${metric.outcome}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /api/catalog/order_commit ok',
        'GET /api/catalog/basket ok',
        'PUT /api/catalog/basket/:id ok',
      ]),
    );
  });

  test("nginx's cache hits, and its connections", async () => {
    // A newcomer's home page twice: the second from nginx's cache.
    for (let index = 0; index < 2; index += 1) {
      await (await fetch(`${recipe.url}/`, { headers: { accept: 'text/html' } })).text();
    }
    await expect
      .poll(() => scalar('sum(nginx_cache_requests_total{cache_status="HIT"})'))
      .toBeGreaterThanOrEqual(1);
    expect(await scalar('nginx_connections_accepted')).toBeGreaterThan(0);
  });

  test('one request followed: the same id in nginx’s log line and the instance’s', async () => {
    // A visitor's own page (a basket): no cache in the way.
    const answer = await fetch(`${recipe.url}/order`, { headers: { cookie: 'basket=1' } });
    await answer.text();
    const id = answer.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    // Its render's time, for DevTools: the backend's wait and the render.
    expect(answer.headers.get('server-timing')).toMatch(
      /backend;desc="backend wait";dur=[\d.]+, render;dur=[\d.]+/,
    );
    await expect
      .poll(async () =>
        (await readFile(recipe.accessLog, 'utf8')).includes(` id=${id} cache=BYPASS `),
      )
      .toBe(true);
    const lines = recipe.shops
      .flatMap((shop) => shop.output().split('\n'))
      .filter((line) => line.includes(`"id":"${id}"`))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ id, method: 'GET', url: '/order', route: '/order', status: 200 }),
    );
    // A kept page goes out without the Server-Timing of a render it did not make.
    const kept = await fetch(`${recipe.url}/`, { headers: { accept: 'text/html' } });
    await kept.text();
    expect(kept.headers.get('x-cache-status')).toBe('HIT');
    expect(kept.headers.get('server-timing')).toBe('cache;desc=HIT');
  });

  test('/metrics is not served through nginx', async () => {
    const answer = await fetch(`${recipe.url}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('# HELP');
  });

  test('ACCESS_LOG=0 writes no line per request', async () => {
    const quiet = await startShopProcess({
      env: {
        API_TARGET: recipe.backend.url.replace(/\/$/, ''),
        ACCESS_LOG: '0',
        METRICS_PORT: 'off',
      },
    });
    try {
      await (await fetch(`${quiet.url}/`)).text();
      await (await fetch(`${quiet.url}/api/catalog/section_root`)).text();
      expect(quiet.output()).not.toContain('"id":');
      expect(quiet.output()).not.toContain('Метрики');
    } finally {
      await quiet.close();
    }
  });

  test('with the backend stopped, the backend-failure alert goes pending', async () => {
    await recipe.backend.close();
    // A visitor with a basket: their page needs the backend every time.
    const pending = async () => {
      await (await fetch(`${recipe.url}/order`, { headers: { cookie: 'basket=1' } })).text();
      const alerts = (await (await fetch(`${prometheus}/api/v1/alerts`)).json()) as {
        data: { alerts: { labels: { alertname: string }; state: string }[] };
      };
      return alerts.data.alerts
        .filter((alert) => alert.labels.alertname === 'ShopBackendFailing')
        .map((alert) => alert.state);
    };
    await expect.poll(pending, { timeout: 60_000, interval: 500 }).toEqual(['pending']);
    expect(
      await scalar('sum(shop_backend_call_duration_seconds_count{outcome="refused"})'),
    ).toBeGreaterThan(0);
  });
});
