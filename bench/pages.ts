// Server throughput for rendered pages (issue 15): /product/7 rendered from the embedded stub by
// 20 connections for 10 s (autocannon, loopback only). Target: 100 pages/s at p99 ≤ 250 ms.
import autocannon from 'autocannon';

const PATH = '/product/7';
const CONNECTIONS = 20;
const DURATION_S = 10;
export const PAGES_TARGET = { pages_per_s: 100, p99_ms: 250 };

export interface PageFigures {
  path: string;
  connections: number;
  duration_s: number;
  pages_per_s: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
  met: boolean;
}

export async function benchPages(baseUrl: string): Promise<PageFigures> {
  const result = await autocannon({
    url: baseUrl + PATH,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
  });
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
    '| page | connections | pages/s | p50 | p99 | non-2xx | errors | target met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    `| ${figures.path} | ${figures.connections} | ${figures.pages_per_s.toFixed(0)} | ${figures.p50_ms} ms | ${figures.p99_ms} ms | ${figures.non_2xx} | ${figures.errors} | ${figures.met ? 'yes' : '**NO**'} |`,
  ].join('\n');
}
