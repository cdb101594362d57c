// Server throughput for rendered pages (issue 15): /product/7 from the production server as it is
// deployed (`host/main.ts` in a process of its own, with the embedded stub), loaded by 20
// connections from this process (autocannon, loopback only): 3 s to warm up (a long-running
// server's steady state, not its first compile), then 10 s measured.
// Target: 100 pages/s at p99 ≤ 250 ms.
import autocannon from 'autocannon';
import type { AtExit } from './lib/main.ts';
import { mark } from './lib/report.ts';
import { startShopChild } from './lib/shop.ts';

const PATH = '/product/7';
const CONNECTIONS = 20;
const WARM_UP_S = 3;
const DURATION_S = 10;
export const PAGES_TARGET = { pages_per_s: 100, p99_ms: 250 };

const load = (url: string, duration: number) =>
  autocannon({
    url: url + PATH,
    connections: CONNECTIONS,
    duration,
    headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
  });

export async function benchPages(atExit: AtExit) {
  const server = await startShopChild(atExit);
  await load(server.url, WARM_UP_S);
  const result = await load(server.url, DURATION_S);
  await server.close();
  const figures = {
    path: PATH,
    connections: CONNECTIONS,
    duration_s: DURATION_S,
    pages_per_s: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
  return {
    ...figures,
    met:
      figures.pages_per_s >= PAGES_TARGET.pages_per_s &&
      figures.p99_ms <= PAGES_TARGET.p99_ms &&
      figures.non_2xx === 0 &&
      figures.errors === 0,
  };
}

export function pagesTable(figures: PageFigures): string {
  return [
    '| page | connections | pages/s | p50 | p99 | non-2xx | errors | ≥ 100/s, p99 ≤ 250 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    `| ${figures.path} | ${figures.connections} | ${figures.pages_per_s.toFixed(0)} | ${figures.p50_ms} ms | ${figures.p99_ms} ms | ${figures.non_2xx} | ${figures.errors} | ${mark(figures.met)} |`,
  ].join('\n');
}

export type PageFigures = Awaited<ReturnType<typeof benchPages>>;
