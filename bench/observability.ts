// What issue 40's observability costs a page of `/`: the JSON log line, the metrics and
// Server-Timing on, beside the same build with them off by its settings (ACCESS_LOG=0,
// METRICS_PORT=off, SERVER_TIMING=0), each `node dist/host/main.js` in a process of its own in
// front of one stub in another (as deployed: API_TARGET), loaded in alternating rounds: the
// process's CPU time (utime + stime from /proc) per page answered. Target: ≤ 3 % more. Then
// 10,000 requests over random paths: the metrics' series (shop_*) are the same after as before.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnStub } from '../tests/stub/stub-process.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { allMet, row, type Target, targetTable, writeReport } from './lib/report.ts';
import { requireBuild, startShopChild, tempDir } from './lib/shop.ts';
import { median } from './lib/stats.ts';
import { rate } from './lib/visitor.ts';

const ROUNDS = 5;
const TARGET_PERCENT = 3;
const RANDOM_PATHS = 10_000;

/** The process's CPU time so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, the 14th and 15th fields (the 12th and 13th after the name), in ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function cpuPerPage(url: string, pid: number): Promise<number> {
  let before = 0;
  const figures = await rate(`${url}/`, 10, {}, () => (before = cpuMs(pid)));
  return (cpuMs(pid) - before) / figures.requests;
}

const random = () => Math.random().toString(36).slice(2, 10);
const RANDOM_KINDS = [
  () => `/product/${Math.floor(Math.random() * 1e9)}`,
  () => `/section/${random()}?page=${random()}`,
  () => `/${random()}/${random()}`,
  () => `/api/catalog/product_retrieve/${Math.floor(Math.random() * 1e9)}`,
  () => `/api/${random()}`,
  () => `/img/v1/160/${random()}.jpg`,
  () => `/assets/${random()}.js`,
  () => `/search?q=${random()}`,
];

/** The metrics' series of the shop's own (shop_*), by name and labels. */
async function shopSeries(metricsUrl: string): Promise<Set<string>> {
  const text = await (await fetch(metricsUrl)).text();
  return new Set(
    text
      .split('\n')
      .filter((line) => line.startsWith('shop_'))
      .map((line) => line.slice(0, line.lastIndexOf(' '))),
  );
}

export async function benchObservability(atExit: AtExit) {
  const stub = await spawnStub(path.join(await tempDir(atExit, 'observability'), 'db.json'), [
    '--reset',
  ]);
  atExit(() => stub.stop());
  const backend = { API_TARGET: stub.url.replace(/\/$/, '') };
  const on = await startShopChild(atExit, {
    ...backend,
    ACCESS_LOG: '1',
    METRICS_PORT: '0',
    SERVER_TIMING: '1',
  });
  const off = await startShopChild(atExit, {
    ...backend,
    ACCESS_LOG: '0',
    METRICS_PORT: 'off',
    SERVER_TIMING: '0',
  });
  // A round each first, not counted: the processes' first compiles.
  await cpuPerPage(on.url, on.child.pid ?? 0);
  await cpuPerPage(off.url, off.child.pid ?? 0);
  const figures = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    figures.on.push(await cpuPerPage(on.url, on.child.pid ?? 0));
    figures.off.push(await cpuPerPage(off.url, off.child.pid ?? 0));
  }
  await off.close();
  // The median of the rounds' ratios: a round that another process's burst slowed weighs once.
  const ratios = figures.on.map((value, round) => value / (figures.off[round] ?? NaN));
  const percent = (median(ratios) - 1) * 100;

  const metricsUrl = /Метрики: (\S+)/.exec(on.output())?.[1] ?? '';
  // Each kind of path a few times first: the series they make are the only ones there are.
  for (const kind of [...RANDOM_KINDS, ...RANDOM_KINDS]) {
    await (await fetch(on.url + kind(), { redirect: 'manual' })).arrayBuffer();
  }
  const before = await shopSeries(metricsUrl);
  let next = 0;
  // A few at a time: a render left without its data by a busy machine is another outcome.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < RANDOM_PATHS) {
        next += 1;
        const kind = RANDOM_KINDS[next % RANDOM_KINDS.length] ?? (() => '/');
        await (await fetch(on.url + kind(), { redirect: 'manual' })).arrayBuffer();
      }
    }),
  );
  const after = await shopSeries(metricsUrl);
  const added = [...after].filter((series) => !before.has(series));
  await on.close();
  const ms = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  const targets: Target[] = [
    row(
      'CPU per page of `/`, log + metrics + Server-Timing on / off (alternating rounds of 10 s; the median of their ratios)',
      `${ms(figures.on)} ms / ${ms(figures.off)} ms: ${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`,
      `≤ +${TARGET_PERCENT} %`,
      percent <= TARGET_PERCENT,
    ),
    row(
      `the metrics' series (shop_*) before and after ${RANDOM_PATHS.toLocaleString('en')} requests over random paths`,
      `${before.size}, ${after.size}${added.length > 0 ? `; new: ${added.slice(0, 5).join(' ')}` : ''}`,
      'the same',
      added.length === 0,
    ),
  ];
  const series = { before: before.size, after: after.size, added };
  return { cpu_ms_per_page: figures, percent, series, targets };
}

if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    requireBuild();
    const figures = await benchObservability(atExit);
    await writeReport(
      'bench-observability',
      'npm run bench:observability',
      figures,
      targetTable(figures.targets),
    );
    return allMet(figures.targets);
  });
}
