// How every bench reports: its figures as JSON and Markdown in reports/ (the Markdown printed
// too), with a table of its targets, each `pass` or `miss`, and the machine it ran on (a busy
// machine runs worse: compare runs on the same load).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './shop.ts';

export interface Target {
  figure: string;
  /** The figure as measured, with its unit. */
  value: string;
  /** The target in words, e.g. `≤ 200 ms`. */
  target: string;
  met: boolean;
}

export const mark = (met: boolean) => (met ? 'pass' : '**miss**');

export function targetTable(targets: Target[]): string {
  return [
    '| Figure | Value | Target | |',
    '| --- | ---: | ---: | --- |',
    ...targets.map(
      (t) => `| ${t.figure} | ${t.value} | ${t.target} | ${t.target ? mark(t.met) : ''} |`,
    ),
  ].join('\n');
}

export const allMet = (targets: Target[]) => targets.every((target) => target.met);

/** Milliseconds for a table: `no answer` for a request that got none. */
export const ms = (value: number | null) =>
  value === null || !Number.isFinite(value) ? 'no answer' : `${Math.round(value)} ms`;

export function machine(): string {
  const [load1 = 0] = os.loadavg();
  return `Machine: ${os.cpus().length} CPUs, load average ${load1.toFixed(2)}, Node ${process.version}.`;
}

/** Writes reports/NAME.json and reports/NAME.md (with the machine line), and prints the latter. */
export async function writeReport(
  name: string,
  title: string,
  figures: unknown,
  markdown: string,
): Promise<void> {
  const md = `# ${title} — ${new Date().toISOString()}\n\n${markdown}\n\n${machine()}\n`;
  console.log(md);
  const dir = path.join(REPO_ROOT, 'reports');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  await writeFile(path.join(dir, `${name}.md`), md);
  console.log(`Written to reports/${name}.json and reports/${name}.md`);
}

/** A figure judged by no target, as a row of targetTable. */
export const untargeted = (figure: string, value: string): Target => ({
  figure,
  value,
  target: '',
  met: true,
});
