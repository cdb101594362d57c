// `npm run bench:edge:nginx` (issue 30; the docs say what it measures): slow clients trickle
// their headers, a line a second, each opened again once nginx closes it. The other two
// figures are tests/e2e/nginx.test.ts's. Then (issue 39) fair use of the backend: one address
// floods uncached searches, 150 at a time, against a backend whose searches never end, while a
// shopper from another address changes the basket and checks out, over and over; what the
// shopper sees is tests/e2e/fairness.test.ts's, the share of their steps that succeed is here.
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { searchFlood, shopperVisit, type Step } from '../tests/e2e/fairness.ts';
import { holdingBackend, stubBackend } from '../tests/e2e/fault-backends.ts';
import { startRecipeInFront, startStubRecipe } from '../tests/e2e/nginx-recipe.ts';
import { runBench } from './lib/main.ts';
import { allMet, targetTable, writeReport } from './lib/report.ts';
import { requireBuild } from './lib/shop.ts';
import { percentile } from './lib/stats.ts';
import { timedGet } from './lib/visitor.ts';

const SLOW_CLIENTS = 2500;
const FLOOD_AT_ONCE = 150;
const SHOPPER_VISITS = 5;
const PROBES = 60;
const PROBE_CAP_MS = 5000;
const TARGET_P95_MS = 1000;

/** A newcomer's `/catalog`: its time, or the cap when it failed or had no answer by then. */
const probe = (front: string) => timedGet(`${front}/catalog`, PROBE_CAP_MS);

/**
 * The recipe in front of a backend whose searches never end, one address (127.0.0.2) flooding
 * it with uncached searches: `SHOPPER_VISITS` visits of a shopper at 127.0.0.1, their steps.
 */
async function fairness(atExit: (stop: () => Promise<unknown>) => void) {
  const stub = await stubBackend();
  atExit(() => stub.close());
  const backend = await holdingBackend(stub.url, (req) => /_search\b/.test(req.url ?? ''));
  atExit(() => backend.close());
  const recipe = await startRecipeInFront(backend.url);
  atExit(() => recipe.close());
  const flood = await searchFlood(recipe.url, FLOOD_AT_ONCE, { localAddress: '127.0.0.2' });
  atExit(() => flood.stop());
  // The flood holds what it can of the backend's connections before the shopper comes.
  while (backend.held() < 16) await sleep(50);
  const steps: (Step & { ms: number })[] = [];
  for (let visit = 0; visit < SHOPPER_VISITS; visit += 1) {
    const started = performance.now();
    const visitSteps = await shopperVisit(recipe.url);
    const ms = (performance.now() - started) / visitSteps.length;
    steps.push(...visitSteps.map((step) => ({ ...step, ms })));
  }
  const held = backend.held();
  await flood.stop();
  return { steps, held, flood: Object.fromEntries(flood.statuses) };
}

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
  trickling = false;
  clearInterval(trickle);
  for (const socket of sockets) socket.destroy();
  await recipe.close();

  const fair = await fairness(atExit);
  const succeeded = fair.steps.filter((step) => step.ok).length;
  const share = Math.round((succeeded / fair.steps.length) * 1000) / 10;
  const failed = fair.steps.filter((step) => !step.ok).map((step) => `${step.step}: ${step.got}`);
  targets.push({
    figure: `a shopper's basket changes and checkouts while one address floods searches (${FLOOD_AT_ONCE} at once)`,
    value: `${share} % (${succeeded} of ${fair.steps.length} steps, ${SHOPPER_VISITS} visits)`,
    target: '100 %',
    met: succeeded === fair.steps.length,
  });
  const flood = Object.entries(fair.flood)
    .map(([status, count]) => `${count} × ${status === '0' ? 'failed' : status}`)
    .join(', ');
  const md = [
    targetTable(targets),
    `${sockets.size} connections held at the end, ${opened} opened in all.`,
    `The flood's answers: ${flood}; the backend held ${fair.held} searches at the end.`,
    failed.length > 0 ? `Failed steps: ${failed.join('; ')}` : '',
  ].join('\n\n');
  const figures = { times_ms: times, held: sockets.size, opened, fairness: fair, targets };
  await writeReport('bench-edge-nginx', 'The edge under slow clients', figures, md);
  return allMet(targets);
});
