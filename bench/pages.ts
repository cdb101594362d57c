// Server throughput for rendered pages (issue 15): /product/7 from the production server as it is
// deployed (`host/main.ts` in a process of its own, with the embedded stub), under 20 connections
// (lib/visitor.ts's rate). Target: 100 pages/s at p99 ≤ 250 ms, none failed.
import type { AtExit } from './lib/main.ts';
import { type Target, targetTable } from './lib/report.ts';
import { startShopChild } from './lib/shop.ts';
import { rate } from './lib/visitor.ts';

const PATH = '/product/7';
const TARGET = { pages_per_s: 100, p99_ms: 250 };

export async function benchPages(atExit: AtExit) {
  const server = await startShopChild(atExit);
  const figures = await rate(server.url + PATH, 20);
  await server.close();
  const met =
    figures.per_s >= TARGET.pages_per_s && figures.p99_ms <= TARGET.p99_ms && figures.failed === 0;
  return { path: PATH, ...figures, met };
}

export function pagesTable(figures: PageFigures): string {
  const target: Target = {
    figure: `\`${figures.path}\`, 20 connections: pages/s, p50, p99, failed`,
    value: `${figures.per_s}/s, ${figures.p50_ms} ms, ${figures.p99_ms} ms, ${figures.failed}`,
    target: `≥ ${TARGET.pages_per_s}/s, p99 ≤ ${TARGET.p99_ms} ms, 0 failed`,
    met: figures.met,
  };
  return targetTable([target]);
}

export type PageFigures = Awaited<ReturnType<typeof benchPages>>;
