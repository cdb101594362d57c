// `npm run bench:edge:nginx` (issue 30; the README says what it measures): slow clients trickle
// their headers, a line a second, each opened again once nginx closes it. The other two
// figures are tests/e2e/nginx.test.ts's.
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStubRecipe } from '../tests/e2e/nginx-recipe.ts';
import { runBench } from './lib/main.ts';
import { allMet, targetTable, writeReport } from './lib/report.ts';
import { requireBuild } from './lib/shop.ts';
import { percentile } from './lib/stats.ts';
import { timedGet } from './lib/visitor.ts';

const SLOW_CLIENTS = 2500;
const PROBES = 60;
const PROBE_CAP_MS = 5000;
const TARGET_P95_MS = 1000;

/** A newcomer's `/catalog`: its time, or the cap when it failed or had no answer by then. */
const probe = (front: string) => timedGet(`${front}/catalog`, PROBE_CAP_MS);

await runBench(async (atExit) => {
  requireBuild();
  const recipe = await startStubRecipe();
  atExit(() => recipe.close());
  const front = recipe.url;
  // A newcomer's /catalog is in nginx's cache, as it is in a shop that is open.
  await probe(front);

  const sockets = new Set<Socket>();
  let opened = 0;
  let trickling = true;
  const open = () => {
    if (!trickling) return;
    opened += 1;
    const socket = connect(Number(new URL(front).port), '127.0.0.1').on('error', () => {});
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      // A persistent attacker: a closed connection is opened again.
      setTimeout(open, 10);
    });
    socket.write('GET /catalog HTTP/1.1\r\nHost: shop\r\n');
  };
  const trickle = setInterval(() => {
    for (const socket of sockets)
      socket.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`);
  }, 1000);
  atExit(async () => {
    trickling = false;
    clearInterval(trickle);
    for (const socket of sockets) socket.destroy();
  });
  for (let i = 0; i < SLOW_CLIENTS; i += 1) open();
  // Every connection is open and has sent its first bytes.
  await sleep(3000);
  const times: number[] = [];
  for (let i = 0; i < PROBES; i += 1) {
    times.push(await probe(front));
    await sleep(250);
  }
  const p95 = Math.round(percentile(times, 0.95));
  const unanswered = times.filter((ms) => ms >= PROBE_CAP_MS).length;
  const targets = [
    {
      figure: `a newcomer's \`/catalog\` p95 under ${SLOW_CLIENTS} slow clients`,
      value: `${p95} ms (p50 ${Math.round(percentile(times, 0.5))} ms, ${unanswered} of ${PROBES} unanswered)`,
      target: `≤ ${TARGET_P95_MS} ms`,
      met: p95 <= TARGET_P95_MS,
    },
  ];
  const md = `${targetTable(targets)}\n\n${sockets.size} connections held at the end, ${opened} opened in all.`;
  const figures = { times_ms: times, held: sockets.size, opened, targets };
  await writeReport('bench-edge-nginx', 'The edge under slow clients', figures, md);
  return allMet(targets);
});
