// `npm run bench:memory`: one production instance as deployed (`node dist/host/main.js`, a process
// of its own in front of the stub in another, an empty image cache, MALLOC_ARENA_MAX=2 as
// docs/deploy.md says): from its spawn to its first answer, its RSS then, after 30 s of four
// visitors at once (pages of every kind, a basket filled by form, the pictures the pages carry,
// /api) and its peak; and the peak of the process that resizes its pictures. `tsx
// bench/memory.ts ROOT` measures another checkout (one from before the built host runs through tsx).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnStub } from '../tests/stub/stub-process.ts';
import { runBench } from './lib/main.ts';
import { allMet, row, type Target, targetTable, writeReport } from './lib/report.ts';
import { procMb, REPO_ROOT, startShopChild, tempDir } from './lib/shop.ts';
import { Visitor } from './lib/visitor.ts';

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

const get = (url: string, accept: string) =>
  fetch(url, { headers: { accept } }).then((answer) => answer.arrayBuffer());

/** One visitor of the mix, asking one thing after another until `until`. */
async function visitor(base: string, kind: number, until: number, pictures: Set<string>) {
  const shopper = new Visitor(new URL(base), 30_000);
  for (let step = kind; Date.now() < until; step += VISITORS) {
    if (kind === 0) {
      // Fills a basket through the form, then looks at it or at a product with it.
      await shopper.post('/basket', '/order', {
        product: String((step % 20) + 1),
        change: 'add',
        back: '/order',
      });
      await shopper.view(step % 2 ? '/order' : '/product/7');
    } else if (kind === 1 && pictures.size > 0) {
      const list = [...pictures];
      await get(`${base}${list[step % list.length]}`, ACCEPTS[step % ACCEPTS.length] ?? '*/*');
    } else if (kind === 1 || step % 5 === 0) {
      await get(`${base}${API[step % API.length]}`, 'application/json');
    } else {
      const { body } = await shopper.view(PAGES[step % PAGES.length] ?? '/');
      for (const [picture] of body.matchAll(/\/img\/v1\/[^"'\s,]+/g)) pictures.add(picture);
    }
  }
}

/** The processes `pid` started (its picture resizer), as /proc lists them. */
const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);

await runBench(async (atExit) => {
  const root = path.resolve(process.argv[2] ?? REPO_ROOT);
  const temp = await tempDir(atExit, 'memory');
  const stub = await spawnStub(path.join(temp, 'db.json'), ['--reset']);
  atExit(() => stub.stop());
  const started = performance.now();
  const env = { API_TARGET: stub.url.replace(/\/$/, ''), MALLOC_ARENA_MAX: '2' };
  const shop = await startShopChild(atExit, env, root);
  const firstAnswerMs = performance.now() - started;
  await get(`${shop.url}/`, 'text/html');
  const firstPageMs = performance.now() - started;
  const pid = shop.child.pid ?? 0;
  const startMb = procMb(pid, 'VmRSS');

  const resizerPeaks = new Map<number, number>();
  const sample = setInterval(() => {
    try {
      for (const child of childrenOf(pid)) {
        resizerPeaks.set(child, Math.max(procMb(child, 'VmHWM'), resizerPeaks.get(child) ?? 0));
      }
    } catch {
      // A resizer that has just ended has no figures left: its last sample stands.
    }
  }, 200);
  const until = Date.now() + LOAD_S * 1000;
  const pictures = new Set<string>();
  await Promise.all(
    Array.from({ length: VISITORS }, (_, kind) => visitor(shop.url, kind, until, pictures)),
  ).finally(() => clearInterval(sample));
  const afterMb = procMb(pid, 'VmRSS');
  const peakMb = procMb(pid, 'VmHWM');
  const resizerMb = Math.max(0, ...resizerPeaks.values());

  const mb = (value: number) => `${value.toFixed(0)} MB`;
  const targets: Target[] = [
    row(
      'first answer (/healthz) from the spawn',
      `${firstAnswerMs.toFixed(0)} ms`,
      '≤ 1000 ms',
      firstAnswerMs <= TARGET.firstAnswerMs,
    ),
    row('first page (/) from the spawn', `${firstPageMs.toFixed(0)} ms`),
    row('RSS at start', mb(startMb), `≤ ${TARGET.startMb} MB`, startMb <= TARGET.startMb),
    row(`RSS after ${LOAD_S} s`, mb(afterMb)),
    row('peak RSS (VmHWM)', mb(peakMb), `≤ ${TARGET.peakMb} MB`, peakMb <= TARGET.peakMb),
    row(`picture resizer's peak (its own process; ${pictures.size} pictures)`, mb(resizerMb)),
  ];
  const figures = { root, firstAnswerMs, firstPageMs, startMb, afterMb, peakMb, resizerMb };
  await writeReport('bench-memory', 'One instance’s memory', figures, targetTable(targets));
  return allMet(targets);
});
