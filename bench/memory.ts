// `npm run bench:memory` (it builds first): the memory of one production instance as it is
// deployed (`node dist/host/main.js` in a process of its own, API_TARGET on the stub running as
// another process, an empty image cache) and how soon it answers (issue 33):
//   - first answer: from the spawn of the server's process to its first answer (`/healthz`, what a
//     load balancer asks first); target ≤ 1 s. Its first page (`/`) is shown beside it;
//   - RSS at start, just after that first page; target ≤ 120 MB;
//   - RSS after 30 s of mixed load (four visitors at once: pages of the shop's routes, a visitor
//     who fills a basket through the form, the pictures the pages carry, /api), and the peak
//     (VmHWM) over the run; target ≤ 200 MB.
// The server runs with MALLOC_ARENA_MAX=2, as README's Deploy starts it (why: there).
// Another checkout or command: `tsx bench/memory.ts ROOT [ARGS…]`, e.g.
// `tsx bench/memory.ts /work/wt-base --import tsx server/main.ts` for the commit before.
// Exits with 1 when a target is missed.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT } from '../tests/e2e/nginx-recipe.ts';
import { spawnStub } from '../tests/stub/stub-process.ts';

const LOAD_S = 30;
const VISITORS = 4;
const TARGET = { firstAnswerMs: 1000, startMb: 120, peakMb: 200 };
const PAGES = [
  '/',
  '/catalog',
  ...[1, 3, 8, 9, 14, 15].map((id) => `/section/${id}`),
  ...Array.from({ length: 20 }, (_, index) => `/product/${index + 1}`),
  ...['мал', 'клубника', 'варенье', 'орех'].map((q) => `/search?q=${encodeURIComponent(q)}`),
  '/news',
  '/policy',
];
const API = [
  '/api/catalog/section_root',
  '/api/catalog/product',
  '/api/catalog/product_retrieve/7',
];
const ACCEPTS = ['image/avif,image/webp,*/*', 'image/webp,*/*', '*/*'];

/** A figure of /proc/PID/status in MB (VmRSS, VmHWM). */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  if (!match?.[1]) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) / 1024;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await fetch(url, { headers, redirect: 'manual' });
  return answer.text();
}

/** One visitor of the mix, asking one thing after another until `until`. */
async function visitor(base: string, kind: number, until: number, pictures: Set<string>) {
  let step = kind;
  const cookies = new Map<string, string>();
  while (Date.now() < until) {
    step += VISITORS;
    if (kind === 0) {
      // A shopper with a basket: adds a product through the form, then looks at the basket.
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const answer = await fetch(`${base}/basket`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
          cookie,
        },
        body: `product=${(step % 20) + 1}&change=add&back=/order`,
      });
      for (const line of answer.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const [name = '', value = ''] = pair.split('=');
        cookies.set(name, value);
      }
      await answer.text();
      const next = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      await get(`${base}${step % 2 ? '/order' : '/product/7'}`, { cookie: next });
    } else if (kind === 1 && pictures.size > 0) {
      const list = [...pictures];
      await get(`${base}${list[step % list.length]}`, {
        accept: ACCEPTS[step % ACCEPTS.length] ?? '*/*',
      });
    } else if (kind === 1 || step % 5 === 0) {
      await get(`${base}${API[step % API.length]}`);
    } else {
      const html = await get(`${base}${PAGES[step % PAGES.length]}`, { 'accept-encoding': 'gzip' });
      for (const [picture] of html.matchAll(/\/img\/v1\/[^"'\s,]+/g)) pictures.add(picture);
    }
  }
}

async function main() {
  const [root = REPO_ROOT, ...command] = process.argv.slice(2);
  const serverArgs = command.length > 0 ? command : ['dist/host/main.js'];
  const temp = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-memory-'));
  const stub = await spawnStub(path.join(temp, 'db.json'), ['--reset']);
  let shop: ChildProcess | undefined;
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const started = performance.now();
    shop = spawn(process.execPath, serverArgs, {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        API_TARGET: stub.url.replace(/\/$/, ''),
        ACCESS_LOG: '0',
        MALLOC_ARENA_MAX: '2',
        IMAGE_CACHE_DIR: path.join(temp, 'images'),
      },
      stdio: 'inherit',
    });
    const pid = shop.pid ?? 0;
    let firstAnswerMs = 0;
    while (!firstAnswerMs) {
      if (shop.exitCode !== null) throw new Error(`the shop exited (${shop.exitCode})`);
      const answer = await fetch(`${base}/healthz`).catch(() => null);
      if (answer?.ok) firstAnswerMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 10));
      await answer?.text();
    }
    await get(`${base}/`);
    const firstPageMs = performance.now() - started;
    const startMb = procMb(pid, 'VmRSS');
    const until = Date.now() + LOAD_S * 1000;
    const pictures = new Set<string>();
    await Promise.all(
      Array.from({ length: VISITORS }, (_, kind) => visitor(base, kind, until, pictures)),
    );
    const afterMb = procMb(pid, 'VmRSS');
    const peakMb = procMb(pid, 'VmHWM');
    const rows: [string, number, string, number?][] = [
      ['first answer (/healthz)', firstAnswerMs, 'ms', TARGET.firstAnswerMs],
      ['first page (/)', firstPageMs, 'ms'],
      ['RSS at start', startMb, 'MB', TARGET.startMb],
      [`RSS after ${LOAD_S} s`, afterMb, 'MB'],
      ['peak RSS (VmHWM)', peakMb, 'MB', TARGET.peakMb],
    ];
    console.log(`\n${serverArgs.join(' ')} (${root}), ${pictures.size} pictures in the mix\n`);
    console.log('| figure | measured | target | met |\n| --- | ---: | ---: | --- |');
    for (const [name, value, unit, target] of rows) {
      const met = target === undefined ? '' : value <= target ? 'yes' : '**NO**';
      const limit = target === undefined ? '' : `≤ ${target} ${unit}`;
      console.log(`| ${name} | ${value.toFixed(0)} ${unit} | ${limit} | ${met} |`);
    }
    if (rows.some(([, value, , target]) => target !== undefined && value > target)) {
      process.exitCode = 1;
    }
  } finally {
    if (shop && shop.exitCode === null) {
      const gone = once(shop, 'exit');
      shop.kill('SIGTERM');
      await gone;
    }
    await stub.stop();
    await rm(temp, { recursive: true, force: true });
  }
}

await main();
