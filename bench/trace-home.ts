// `npm run bench:trace` (`-- /product/7` for another route; default `/`): where a phone's main
// thread spends its time on a page, from Chromium's performance trace, not from a guess. The
// page is opened as a first-time visitor on the throttled phone (CDP: 4x slower CPU, 150 ms RTT
// at 1.6 Mbps) and traced until its carousel's first turn has come and gone (SLIDE_INTERVAL_MS
// (FIRST_CHANGE_MS) after the start, plus a margin). Prints:
//   - the main thread's time by kind: style, layout and paint, script (by file), HTML parsing,
//     image decoding, garbage collection, the rest; and the long tasks' blocking time;
//   - the carousel: what its engine's code and its components cost;
//   - hydration by component: the same page built with React's profiling build (`vite build
//     --mode profile`, dist/profile), whose "Components ⚛" track names each component's render.
// Figures are medians of BENCH_TRACE_RUNS traces (3) of the production build; the profiling trace
// is one run (it is slower than the production build: its component shares are what it gives).
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIRST_CHANGE_MS, FIRST_VIEW_VIEWPORT } from '../tests/e2e/first-view.ts';
import { launchPhone, throttlePhone } from './lib/browsers.ts';
import { type AtExit, isMain, runBench } from './lib/main.ts';
import { writeReport } from './lib/report.ts';
import { DIST, REPO_ROOT, startBenchShop } from './lib/shop.ts';
import { median } from './lib/stats.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_TRACE_RUNS ?? 3) || 3);
/** After the carousel's first turn, long enough for its engine to load and run on the phone. */
const AFTER_FIRST_TURN_MS = 3000;
/** A task longer than this blocks a tap (Lighthouse's TBT counts what is above it). */
const LONG_TASK_MS = 50;

const CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'loading',
  'toplevel',
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own CPU time: without the time it waited for a busy machine's cores. */
  tts?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; fileName?: string; data?: Record<string, unknown> } & Record<
    string,
    unknown
  >;
}

/** What the main thread was doing, by the trace event's name. */
const KIND_OF: Record<string, string> = {
  ParseHTML: 'HTML parsing',
  ParseAuthorStyleSheet: 'style: CSS parsing',
  UpdateLayoutTree: 'style: recalculation',
  RecalculateStyles: 'style: recalculation',
  Layout: 'layout',
  UpdateLayerTree: 'paint and compositing',
  PrePaint: 'paint and compositing',
  Paint: 'paint and compositing',
  PaintImage: 'paint and compositing',
  Layerize: 'paint and compositing',
  Commit: 'paint and compositing',
  HitTest: 'layout',
  IntersectionObserverController: 'layout',
  ComputeIntersections: 'layout',
  EvaluateScript: 'script',
  'v8.compile': 'script',
  'v8.compileModule': 'script',
  'v8.evaluateModule': 'script',
  'v8.callFunction': 'script',
  'v8.run': 'script',
  'v8.produceModuleCache': 'script',
  'v8.produceCache': 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  FireIdleCallback: 'script',
  RunMicrotasks: 'script',
  TimeStamp: 'script',
  MinorGC: 'garbage collection',
  MajorGC: 'garbage collection',
  'V8.GCScavenger': 'garbage collection',
  'V8.GC_MC_BACKGROUND_MARKING': 'garbage collection',
  'Decode Image': 'image decoding',
  ImageDecodeTask: 'image decoding',
  'Decode LazyPixelRef': 'image decoding',
};
/** Event names by their start, for Blink's and V8's many internal ones. */
const KIND_BY_PREFIX: [string, string][] = [
  ['V8.GC', 'garbage collection'],
  ['V8.', 'script'],
  ['v8.', 'script'],
  ['BlinkScheduler_PerformMicrotaskCheckpoint', 'script'],
  ['DocumentLoader::', 'HTML parsing'],
  ['DecodedDataDocumentParser::', 'HTML parsing'],
  ['HTMLDocumentParser::', 'HTML parsing'],
  ['IntersectionObserverController::', 'layout'],
  ['UpdateLayer', 'paint and compositing'],
];

function kindOf(name: string): string {
  return (
    KIND_OF[name] ?? KIND_BY_PREFIX.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 'other'
  );
}

const KINDS = [
  'style: recalculation',
  'style: CSS parsing',
  'layout',
  'paint and compositing',
  'script',
  'HTML parsing',
  'image decoding',
  'garbage collection',
  // Inside a task, outside every event the trace names (the scheduler's own work, mostly).
  'other',
];

/** A script's file without its build hash, e.g. `index.js`; `(inline)` for the page's own. */
function scriptFile(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  const name = new URL(url, 'http://x/').pathname.split('/').pop() ?? '';
  if (!name.endsWith('.js')) return '(inline and page)';
  return name.replace(/-[\w-]{8}\.js$/, '.js');
}

function urlOf(event: TraceEvent): unknown {
  return event.args?.data?.url ?? event.args?.fileName ?? event.args?.data?.fileName;
}

/** Complete events of one thread (B/E pairs joined), ordered so that a parent precedes its children. */
function completeEvents(events: TraceEvent[]): TraceEvent[] {
  const open: TraceEvent[] = [];
  const done: TraceEvent[] = [];
  for (const event of events) {
    if (event.ph === 'X' && event.dur !== undefined) done.push(event);
    else if (event.ph === 'B') open.push(event);
    else if (event.ph === 'E') {
      const begin = open.pop();
      if (!begin) continue;
      const tdur =
        begin.tts !== undefined && event.tts !== undefined ? event.tts - begin.tts : undefined;
      done.push({
        ...begin,
        ph: 'X',
        dur: event.ts - begin.ts,
        ...(tdur === undefined ? {} : { tdur }),
      });
    }
  }
  return done.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
}

/** An event's CPU time on its thread (its wall time where the trace has none). */
const cpu = (event: TraceEvent) => event.tdur ?? event.dur ?? 0;

export interface TraceFigures {
  /** Milliseconds of the main thread's CPU time per kind (self time, each counted once). */
  kinds: Record<string, number>;
  /** Script time per file. */
  files: Record<string, number>;
  /** Image decoding on the raster threads, off the main thread. */
  offThreadDecodeMs: number;
  /** Tasks over 50 ms after the first contentful paint: their time above 50 ms, summed. */
  blockingMs: number;
  longTasks: { at_ms: number; ms: number; kind: string }[];
  fcpMs: number;
  /** The time of 'other', by event name. */
  others: Record<string, number>;
  /** The profiling build's component renders, self and inclusive time per component. */
  components: { name: string; selfMs: number; totalMs: number; count: number }[];
}

export function analyse(events: TraceEvent[], origin: string): TraceFigures {
  const parse = events.find(
    (event) =>
      event.name === 'ParseHTML' &&
      String(event.args?.data?.url ?? (event.args?.beginData as { url?: string })?.url).startsWith(
        origin,
      ),
  );
  if (!parse) throw new Error(`the trace holds no parsing of a page from ${origin}`);
  const { pid, tid } = parse;
  const main = completeEvents(events.filter((e) => e.pid === pid && e.tid === tid));
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.pid === pid && e.args?.data?.isLoadingMainFrame,
  );
  const start = navigation?.ts ?? main[0]?.ts ?? 0;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === pid);
  const fcpAt = fcp?.ts ?? start;

  const kinds: Record<string, number> = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  const files: Record<string, number> = {};
  const others: Record<string, number> = {};
  const longTasks: TraceFigures['longTasks'] = [];
  let blocking = 0;
  // The stack of open events: each one's self time is its time less its children's.
  const stack: { event: TraceEvent; self: number; file: string | null }[] = [];
  const close = (until: number) => {
    for (let top = stack.at(-1); top; top = stack.at(-1)) {
      if (top.event.ts + (top.event.dur ?? 0) > until) break;
      stack.pop();
      const kind = kindOf(top.event.name);
      kinds[kind] = (kinds[kind] ?? 0) + top.self / 1000;
      if (kind === 'other')
        others[top.event.name] = (others[top.event.name] ?? 0) + top.self / 1000;
      if (kind === 'script') {
        const file = top.file ?? '(unknown)';
        files[file] = (files[file] ?? 0) + top.self / 1000;
      }
    }
  };
  // Top-level tasks: what the thread ran, with what it spent most on.
  let task: { event: TraceEvent; kinds: Record<string, number> } | null = null;
  const endTask = () => {
    if (!task) return;
    const ms = (task.event.dur ?? 0) / 1000;
    if (ms > LONG_TASK_MS) {
      const kind = Object.entries(task.kinds).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'other';
      longTasks.push({ at_ms: (task.event.ts - start) / 1000, ms, kind });
      if (task.event.ts >= fcpAt) blocking += ms - LONG_TASK_MS;
    }
    task = null;
  };
  for (const event of main) {
    close(event.ts);
    if (event.ts < start) continue;
    const parent = stack[stack.length - 1];
    if (parent) parent.self -= cpu(event);
    if (!parent && event.name === 'RunTask') {
      endTask();
      task = { event, kinds: {} };
    }
    if (task && parent) {
      const kind = kindOf(event.name);
      task.kinds[kind] = (task.kinds[kind] ?? 0) + cpu(event);
    }
    stack.push({
      event,
      self: cpu(event),
      file: scriptFile(urlOf(event)) ?? parent?.file ?? null,
    });
  }
  close(Infinity);
  endTask();

  const offThreadDecode = events
    .filter((e) => e.pid === pid && e.tid !== tid && kindOf(e.name) === 'image decoding')
    .reduce((sum, e) => sum + cpu(e) / 1000, 0);

  return {
    kinds,
    files,
    offThreadDecodeMs: offThreadDecode,
    blockingMs: blocking,
    longTasks,
    fcpMs: (fcpAt - start) / 1000,
    others,
    components: componentRenders(events.filter((e) => e.pid === pid && e.name === 'TimeStamp')),
  };
}

/**
 * React's profiling build logs each component's render (its start and end, in the page's
 * milliseconds) to the "Components ⚛" track through console.timeStamp. A component's spans nest
 * in its parent's: the self time is a span less the spans directly inside it.
 */
function componentRenders(stamps: TraceEvent[]): TraceFigures['components'] {
  const spans = stamps
    .map(
      (e) => e.args?.data as { message?: string; start?: unknown; end?: unknown; track?: string },
    )
    // "Blocked" marks where a render waited, not a component.
    .filter((data) => data?.track === 'Components ⚛' && data.message !== 'Blocked')
    // In the trace's microseconds.
    .map((data) => ({
      name: String(data.message),
      start: Number(data.start) / 1000,
      end: Number(data.end) / 1000,
    }))
    .filter((span) => Number.isFinite(span.start) && span.end >= span.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const totals = new Map<string, { selfMs: number; totalMs: number; count: number }>();
  const stack: { name: string; end: number; self: number }[] = [];
  const settle = (until: number) => {
    for (let done = stack.at(-1); done && done.end <= until; done = stack.at(-1)) {
      stack.pop();
      const entry = totals.get(done.name);
      if (entry) entry.selfMs += done.self;
    }
  };
  for (const span of spans) {
    settle(span.start);
    const parent = stack[stack.length - 1];
    const duration = span.end - span.start;
    if (parent) parent.self -= duration;
    // A component inside one of its own name is counted once in its inclusive time.
    const outermost = !stack.some((open) => open.name === span.name);
    const entry = totals.get(span.name) ?? { selfMs: 0, totalMs: 0, count: 0 };
    if (outermost) entry.totalMs += duration;
    entry.count += 1;
    totals.set(span.name, entry);
    stack.push({ name: span.name, end: span.end, self: duration });
  }
  settle(Infinity);
  return [...totals].map(([name, entry]) => ({ name, ...entry }));
}

/** One trace of `route` on the throttled phone, in a fresh browser. */
async function traceOnce(base: string, route: string, profiling = false): Promise<TraceEvent[]> {
  const browser = await launchPhone('chromium');
  try {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    // React's profiling build times each component only when it sees developer tools (its
    // ProfileMode); an empty hook is enough, it then injects nothing.
    if (profiling) await page.evaluateOnNewDocument('window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {}');
    await page.setViewport({ ...FIRST_VIEW_VIEWPORT, isMobile: true, hasTouch: true });
    await throttlePhone(page);
    await page.tracing.start({ categories: CATEGORIES });
    await page.goto(`${base}${route}`, { waitUntil: 'networkidle0', timeout: 120_000 });
    // Until the carousel's first turn has loaded its engine and moved (or would have).
    await page.evaluate(
      `new Promise((resolve) => setTimeout(resolve, Math.max(0, ${FIRST_CHANGE_MS + AFTER_FIRST_TURN_MS} - performance.now())))`,
    );
    await page.waitForNetworkIdle({ idleTime: 500, timeout: 60_000 });
    const trace = await page.tracing.stop();
    if (!trace) throw new Error('Chromium returned no trace');
    return (JSON.parse(Buffer.from(trace).toString('utf8')) as { traceEvents: TraceEvent[] })
      .traceEvents;
  } finally {
    await browser.close();
  }
}

/** The profiling build (`vite build --mode profile`) served with the production server entry. */
async function startProfilingShop(atExit: AtExit): Promise<string | null> {
  const profile = path.join(DIST, 'profile');
  if (!existsSync(path.join(profile, 'client', 'index.html'))) return null;
  const server = path.join(profile, 'server');
  if (!existsSync(server)) await symlink(path.join(DIST, 'server'), server);
  const shop = await startBenchShop(atExit, profile);
  return shop.url.replace(/\/+$/, '');
}

/** reports/NAME.json: a trace to open in DevTools' Performance panel. */
async function saveTrace(name: string, traceEvents: TraceEvent[]): Promise<void> {
  const dir = path.join(REPO_ROOT, 'reports');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.json`), JSON.stringify({ traceEvents }));
}

const ms = (value: number | undefined) => `${Math.round(value ?? 0)} ms`;

export function traceTable(runs: TraceFigures[], profiled: TraceFigures | null): string {
  const med = (pick: (run: TraceFigures) => number) => median(runs.map(pick));
  const total = med((run) => Object.values(run.kinds).reduce((a, b) => a + b, 0));
  const lines = [
    `Main thread, median of ${runs.length} trace(s) of the production build: its CPU time (the thread's own, unslowed by the 4x throttling or by other processes; the phone takes about 4x), by kind. First contentful paint at ${ms(med((r) => r.fcpMs))} (wall time).`,
    '',
    '| Main thread | Time | Share |',
    '| --- | ---: | ---: |',
    ...KINDS.map((kind) => {
      const value = med((run) => run.kinds[kind] ?? 0);
      return `| ${kind} | ${ms(value)} | ${((100 * value) / total).toFixed(0)} % |`;
    }),
    `| **all** | ${ms(total)} | |`,
    `| image decoding off the main thread | ${ms(med((r) => r.offThreadDecodeMs))} | |`,
    `| **blocking time** (wall time of tasks after the first paint, above ${LONG_TASK_MS} ms) | ${ms(med((r) => r.blockingMs))} | |`,
    '',
    '| Script by file | Time |',
    '| --- | ---: |',
  ];
  const fileNames = [...new Set(runs.flatMap((run) => Object.keys(run.files)))];
  const byFile = fileNames
    .map((file) => [file, med((run) => run.files[file] ?? 0)] as const)
    .sort((a, b) => b[1] - a[1])
    .filter(([, value]) => value >= 1);
  for (const [file, value] of byFile) lines.push(`| ${file} | ${ms(value)} |`);
  const longest = runs[0]?.longTasks ?? [];
  lines.push(
    '',
    `Long tasks of the first trace: ${longest.map((t) => `${ms(t.ms)} at ${(t.at_ms / 1000).toFixed(1)} s (${t.kind})`).join('; ') || 'none'}.`,
  );
  if (profiled) {
    const components = [...profiled.components].sort((a, b) => b.selfMs - a.selfMs);
    const carousel = components.filter((c) => /Carousel|Slide|Embla/i.test(c.name));
    lines.push(
      '',
      'Hydration and renders by component (React profiling build, one trace, wall time): the 15 with most self time.',
      '',
      '| Component | Self | Inclusive | Renders |',
      '| --- | ---: | ---: | ---: |',
      ...components
        .slice(0, 15)
        .map(
          (c) =>
            `| ${c.name} | ${c.selfMs.toFixed(1)} ms | ${c.totalMs.toFixed(1)} ms | ${c.count} |`,
        ),
      '',
      `The carousel's components: ${carousel.map((c) => `${c.name} ${c.totalMs.toFixed(1)} ms (${c.count}×)`).join(', ') || 'none rendered'}.`,
    );
  } else {
    lines.push('', 'No dist/profile: hydration by component needs `vite build --mode profile`.');
  }
  return lines.join('\n');
}

if (isMain(import.meta.url) && process.argv[2]?.endsWith('.json')) {
  // A saved trace analysed again: `tsx bench/trace-home.ts reports/trace-home.json ORIGIN`.
  const { readFile } = await import('node:fs/promises');
  const saved = JSON.parse(await readFile(process.argv[2], 'utf8')) as {
    traceEvents: TraceEvent[];
  };
  const figures = analyse(saved.traceEvents, process.argv[3] ?? 'http://127.0.0.1');
  console.log(traceTable([figures], figures.components.length > 0 ? figures : null));
  console.log(
    Object.entries(figures.others)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25),
  );
} else if (isMain(import.meta.url)) {
  await runBench(async (atExit) => {
    const route = process.argv[2] ?? '/';
    const base = (await startBenchShop(atExit)).url.replace(/\/+$/, '');
    const runs: TraceFigures[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const events = await traceOnce(base, route);
      if (run === 1) await saveTrace('trace-home', events);
      runs.push(analyse(events, base));
      console.error(`trace ${run}/${RUNS} of ${route} done`);
    }
    const profileBase = await startProfilingShop(atExit);
    let profiled: TraceFigures | null = null;
    if (profileBase) {
      const events = await traceOnce(profileBase, route, true);
      await saveTrace('trace-home-profiling', events);
      profiled = analyse(events, profileBase);
    }
    await writeReport(
      'bench-trace',
      `Trace of ${route} on the throttled phone`,
      { route, runs, profiled },
      traceTable(runs, profiled),
    );
    return true;
  });
}
