// `npm run bench:render` (it builds first): issue 25's render cost, the instance's own render of
// `/` as the issue measured it. `server/main.ts` with the embedded stub (NODE_ENV=production, no
// access log) on a free port, loaded by 10 connections for 10 s (autocannon, loopback, no
// compression asked), after 3 s of warm-up; the catalogue's answers are kept in the process, so
// what is measured is the render.
//
// `-- --beside DIR`: another checkout of the shop, built (`npm ci && npm run build` there, e.g. a
// `git worktree` of the previous commit). Both servers run at once and are measured in
// alternating rounds (`--rounds N`, default 2), so that a machine busy with something else
// weighs on both alike: the issue's "beside the previous commit in one run".
// Targets: >= 100 pages/s, and with --beside >= 2x the other's rate. Exits with 1 when missed.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startServer } from './pages.ts';
import { stopOnce } from './stop-once.ts';

const PATH = '/';
const CONNECTIONS = 10;
const WARM_UP_S = 3;
const DURATION_S = 10;
const TARGET = { pages_per_s: 100, times_beside: 2 };

interface Shop {
  name: string;
  url: string;
  child: ChildProcess;
  rates: number[];
}

const { values } = parseArgs({
  options: { beside: { type: 'string' }, rounds: { type: 'string', default: '2' } },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: ${values.rounds}`);

const load = (url: string, duration: number) =>
  autocannon({ url: url + PATH, connections: CONNECTIONS, duration });

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-render-'));
const shops: Shop[] = [];
const stop = stopOnce(
  async () => {
    await Promise.all(
      shops.map(async ({ child }) => {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
    await rm(dataDir, { recursive: true, force: true });
  },
  (signal) => console.error(`bench:render: ${signal}, stopping the servers`),
);

try {
  const checkouts = [
    { name: 'this checkout', root: undefined },
    ...(values.beside ? [{ name: path.resolve(values.beside), root: values.beside }] : []),
  ];
  for (const [index, { name, root }] of checkouts.entries()) {
    const server = await startServer(path.join(dataDir, `db-${index}.json`), {}, root);
    shops.push({ name, url: server.url, child: server.child, rates: [] });
  }
  for (const shop of shops) await load(shop.url, WARM_UP_S);
  for (let round = 0; round < rounds; round += 1) {
    for (const shop of shops) {
      const result = await load(shop.url, DURATION_S);
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(`${shop.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      }
      shop.rates.push(result.requests.average);
    }
  }

  const mean = (rates: number[]) => rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
  console.log(`| ${PATH} rendered by | pages/s per round | mean | HTML | gzip |`);
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const shop of shops) {
    const html = Buffer.from(await (await fetch(shop.url + PATH)).arrayBuffer());
    console.log(
      `| ${shop.name} | ${shop.rates.map((rate) => rate.toFixed(1)).join(', ')} | ${mean(shop.rates).toFixed(1)} | ${html.length} B | ${gzipSync(html).length} B |`,
    );
  }
  const [own, beside] = shops.map((shop) => mean(shop.rates));
  const times = own !== undefined && beside !== undefined ? own / beside : undefined;
  if (times !== undefined)
    console.log(`\nthis checkout renders ${PATH} ${times.toFixed(2)}x as fast`);
  const met =
    (own ?? 0) >= TARGET.pages_per_s && (times === undefined || times >= TARGET.times_beside);
  console.log(
    `target (>= ${TARGET.pages_per_s} pages/s${beside === undefined ? '' : `, >= ${TARGET.times_beside}x beside`}): ${met ? 'met' : 'MISSED'}`,
  );
  if (!met) process.exitCode = 1;
} finally {
  await stop();
}
