// `npm run bench:edge:backend` (issue 30, items 5 and 6; it builds first): the production server
// (`host/main.ts` in a process of its own, tests/e2e/nginx-recipe.ts's startShopProcess) in front
// of the stub whose answers are twisted mid-run (tests/e2e/fault-backends.ts's twistedBackend):
// 200 with HTML, JSON of another shape, a 307 to another host, 50 MB of JSON, and /api asked for
// `x.html` and `x.js`. For each, a shop of its own sees the catalogue once while all is well, then
// the twist comes and it is asked for five pages and the browser's /api call; then the backend
// goes down, and /catalog must still be the good catalogue (the odd answer was not kept). The
// redirect is also tried on order_commit, by the checkout form as a browser without JavaScript
// posts it. While the backend sends 50 MB answers (10 s of views, 4 visitors at a time), /healthz is
// asked every 50 ms and the instance's peak RSS is read (VmHWM); the same probes with the backend
// well come first, for what this machine gives /healthz anyway.
// Targets: no 500 from the shop; nothing kept; the order neither sent elsewhere nor said placed;
// /api's odd answers are the shop's JSON 502; /healthz max <= 200 ms; RSS peak <= 400 MB.
// Prints a table and writes reports/bench-edge-backend.json; exits with 1 when a target is missed.
// BENCH_SHOP_ROOT runs another checkout's server (built) against the same backends: the old code.
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  elsewhereBackend,
  stubBackend,
  type Twist,
  type TwistedBackend,
  twistedBackend,
} from '../tests/e2e/fault-backends.ts';
import { type Instance, REPO_ROOT, startShopProcess } from '../tests/e2e/nginx-recipe.ts';
import { stopOnce } from './stop-once.ts';

const SHOP_ROOT = process.env.BENCH_SHOP_ROOT || REPO_ROOT;
const PAGES = ['/', '/catalog', '/section/1', '/product/7', '/search?q=малина'];
/** What /catalog shows when it is the good catalogue (the stub's fixtures). */
const GOOD = 'Замороженные ягоды';
/** No request waits longer: a shop that reads 50 MB for a minute shows as this. */
const CLIENT_CAP_MS = 60_000;
const HEALTH_TARGET_MS = 200;
const RSS_TARGET_MB = 400;

interface Answer {
  status: number;
  type: string;
  location: string;
  text: string;
  ms: number;
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const answer = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(CLIENT_CAP_MS),
      ...init,
    });
    const text = await answer.text();
    return {
      status: answer.status,
      type: answer.headers.get('content-type') ?? '',
      location: answer.headers.get('location') ?? '',
      text,
      ms: performance.now() - started,
    };
  } catch {
    // No answer within the cap, or the connection cut: 0.
    return { status: 0, type: '', location: '', text: '', ms: performance.now() - started };
  }
}

/** The instance's peak resident memory so far, in MB (Linux: VmHWM). */
function peakRssMb(instance: Instance): number {
  const status = readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Asks /healthz every 50 ms until stopped; resolves with each answer's time. */
function probeHealth(url: string): { stop(): Promise<number[]> } {
  let running = true;
  const times: number[] = [];
  const probing = (async () => {
    while (running) {
      const answer = await ask(`${url}/healthz`);
      times.push(answer.status === 200 ? answer.ms : CLIENT_CAP_MS);
      await sleep(50);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await probing;
      return times;
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

interface Case {
  name: string;
  /** What each request was answered, by its path. */
  answers: { path: string; status: number }[];
  /** The odd answer stood in for the good catalogue in the outage afterwards. */
  kept: boolean;
  /** Anything else that missed, said in words; empty when all held. */
  misses: string[];
}

const stub = await stubBackend();
const elsewhere = await elsewhereBackend();
/** Each shop still running, and the backend in front of which it runs. */
const running = new Map<Instance, TwistedBackend>();
const stopAll = stopOnce(
  async () => {
    for (const [shop, backend] of running) {
      await shop.close();
      await backend.close();
    }
    await elsewhere.close();
    await stub.close();
  },
  () => console.error('bench:edge:backend: stopping'),
);

/** A shop of its own in front of a twisted stub, which has seen the good catalogue once. */
async function freshShop(): Promise<{ backend: TwistedBackend; shop: Instance; misses: string[] }> {
  const backend = await twistedBackend(stub.url, elsewhere.url);
  const shop = await startShopProcess({
    root: SHOP_ROOT,
    env: { API_TARGET: backend.url, CATALOG_CACHE_FRESH_MS: '0' },
  });
  running.set(shop, backend);
  const first = await ask(`${shop.url}/catalog`);
  const good = first.status === 200 && first.text.includes(GOOD);
  return { backend, shop, misses: good ? [] : ['the good catalogue did not show first'] };
}

/**
 * The backend goes down: whether the odd answer then stood in for the good catalogue (kept as
 * the last good one). The shop is stopped after.
 */
async function keptAfterOutage(backend: TwistedBackend, shop: Instance): Promise<boolean> {
  await backend.kill();
  const later = await ask(`${shop.url}/catalog`);
  running.delete(shop);
  await shop.close();
  await backend.close();
  return !(later.status === 200 && later.text.includes(GOOD));
}

const onlyGets = (req: { method?: string }) => req.method === 'GET';
let health = { maxMs: 0, p95Ms: 0, probes: 0, idleMaxMs: 0 };
let rssPeakMb = 0;
let rssBeforeMb = 0;

/** How long page views go on while the backend sends 50 MB answers. */
const HUGE_WINDOW_MS = 10_000;

async function pagesCase(name: string, twist: Twist): Promise<Case> {
  const { backend, shop, misses } = await freshShop();
  const paths = [...PAGES, '/api/catalog/section_root'];
  const answers: Case['answers'] = [];
  const view = async (pathname: string) => {
    answers.push({ path: pathname, status: (await ask(`${shop.url}${pathname}`)).status });
  };
  if (twist !== 'huge') {
    backend.twist(twist, onlyGets);
    for (const pathname of paths) await view(pathname);
  } else {
    // The same probes with the backend well first: what this machine gives /healthz anyway.
    const idle = probeHealth(shop.url);
    await sleep(2_000);
    const idleTimes = await idle.stop();
    rssBeforeMb = Math.round(peakRssMb(shop));
    backend.twist(twist, onlyGets);
    const probe = probeHealth(shop.url);
    const until = performance.now() + HUGE_WINDOW_MS;
    // Four visitors at a time, each going through the pages until the window closes.
    await Promise.all(
      Array.from({ length: 4 }, async (_, visitor) => {
        for (let i = visitor; performance.now() < until; i += 1) {
          await view(paths[i % paths.length] ?? '/');
        }
      }),
    );
    const times = await probe.stop();
    health = {
      maxMs: Math.round(Math.max(...times)),
      p95Ms: Math.round(percentile(times, 95)),
      probes: times.length,
      idleMaxMs: Math.round(Math.max(...idleTimes)),
    };
    rssPeakMb = Math.round(peakRssMb(shop));
  }
  // JSON of another shape is JSON, and /api passes it; anything else is the shop's 502.
  const passed = answers.filter((one) => one.path.startsWith('/api/') && one.status !== 502);
  if (twist !== 'shape' && passed.length > 0) {
    misses.push(`/api passed it on ${passed.length} times (${passed[0]?.status})`);
  }
  return { name, answers, kept: await keptAfterOutage(backend, shop), misses };
}

async function apiCase(): Promise<Case> {
  const { backend, shop, misses } = await freshShop();
  backend.twist('html', onlyGets);
  const paths = ['/api/t/x.html', '/api/t/x.js'];
  const answers = [];
  for (const pathname of paths) {
    const answer = await ask(`${shop.url}${pathname}`);
    if (!answer.type.startsWith('application/json')) {
      misses.push(`${pathname} went out as ${answer.type}`);
    }
    answers.push({ path: pathname, status: answer.status });
  }
  return { name: '/api x.html, x.js', answers, kept: await keptAfterOutage(backend, shop), misses };
}

/** The checkout form as a browser without JavaScript posts it, its order_commit redirected. */
async function orderCase(): Promise<Case> {
  const { backend, shop, misses } = await freshShop();
  const post = (pathname: string, fields: Record<string, string>, cookie = '') =>
    fetch(`${shop.url}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Site': 'same-origin',
        Origin: shop.url,
        Cookie: cookie,
      },
      body: new URLSearchParams(fields),
    });
  const added = await post('/basket', { product: '7', change: 'plus', back: '/product/7' });
  const cookie = added.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (added.status !== 303 || !cookie.includes('sessionid=')) misses.push('no basket to order');
  backend.twist('redirect', (req) => req.url === '/api/catalog/order_commit');
  const order = await post(
    '/commit',
    { phone: '+7(912)345-67-89', delivery: '2', policy_accept: 'on', comment: '' },
    cookie,
  );
  await order.text();
  if (order.status === 303 && order.headers.get('location') === '/order_status') {
    misses.push('told the order was placed');
  }
  if (elsewhere.asked.some((line) => line.includes('order_commit'))) {
    misses.push('the order was sent to the other host');
  }
  return {
    name: '307 on order_commit (form)',
    answers: [{ path: '/commit', status: order.status }],
    kept: await keptAfterOutage(backend, shop),
    misses,
  };
}

const cases: Case[] = [];
try {
  cases.push(
    await pagesCase('200 with HTML', 'html'),
    await pagesCase('JSON of another shape', 'shape'),
    await pagesCase('307 to another host', 'redirect'),
    await orderCase(),
    await pagesCase('50 MB of JSON', 'huge'),
    await apiCase(),
  );
  if (elsewhere.asked.length > 0) {
    const other = cases.find((one) => one.name === '307 to another host');
    other?.misses.push(`the other host was asked ${elsewhere.asked.length} times`);
  }
} finally {
  await stopAll();
}

const count = (statuses: number[]) => {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status}×${n}`).join(' ');
};
/** A 500 of the shop's own, or no answer at all; /api's 502 is the shop's word for an odd answer. */
const failed = ({ path: pathname, status }: { path: string; status: number }) =>
  status === 0 || (status >= 500 && !(pathname.startsWith('/api/') && status === 502));
const rows = cases.map((one) => {
  const failures = one.answers.filter(failed).length;
  const pass = failures === 0 && !one.kept && one.misses.length === 0;
  return {
    case: one.name,
    statuses: count(one.answers.map((answer) => answer.status)),
    '5xx or none': failures,
    kept: one.kept ? 'yes' : 'no',
    other: one.misses.join('; ') || '-',
    target: 'no 500, not kept',
    result: pass ? 'pass' : 'MISS',
  };
});
const healthPass = health.maxMs <= HEALTH_TARGET_MS;
const rssPass = rssPeakMb <= RSS_TARGET_MB;
console.log(`\nbench:edge:backend, shop at ${SHOP_ROOT}\n`);
console.table(rows);
console.table([
  {
    measure: '/healthz while the backend sends 50 MB answers (max / p95)',
    value: `${health.maxMs} / ${health.p95Ms} ms (${health.probes} probes; idle max ${health.idleMaxMs} ms)`,
    target: `max <= ${HEALTH_TARGET_MS} ms`,
    result: healthPass ? 'pass' : 'MISS',
  },
  {
    measure: 'RSS peak of the instance (VmHWM)',
    value: `${rssPeakMb} MB (${rssBeforeMb} MB before the 50 MB answers)`,
    target: `<= ${RSS_TARGET_MB} MB`,
    result: rssPass ? 'pass' : 'MISS',
  },
]);
const allPass = healthPass && rssPass && rows.every((row) => row.result === 'pass');
await mkdir(path.join(REPO_ROOT, 'reports'), { recursive: true });
await writeFile(
  path.join(REPO_ROOT, 'reports', 'bench-edge-backend.json'),
  `${JSON.stringify({ shopRoot: SHOP_ROOT, cases: rows, health, rssPeakMb, rssBeforeMb, allPass }, null, 2)}\n`,
);
process.exitCode = allPass ? 0 : 1;
