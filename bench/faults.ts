// `npm run bench:faults` (issue 24; it builds first): the production server in front of backends
// that misbehave (tests/e2e/fault-backends.ts): one that accepts connections and never answers,
// a closed port, one that holds every answer 5 s, one that dies after the catalogue was seen, and
// one that answers 500 with Django's error page. For each, the shop's server runs as a child
// process (`node --import tsx host/main.ts`, so that its open files can be counted in
// /proc/PID/fd), on 127.0.0.1 like everything here, and the bench measures:
//   1. open files of the server before, and 10 s after, 200 page views (20 at a time) of
//      returning visitors (a session cookie: their basket is asked for too);
//   2. answer times of five pages (p50, p99 of 10 newcomers' views each), their status and
//      whether their content is there (a marker from the stub's fixtures in the HTML);
//   3. answer times of the basket, checkout and login forms, posted as a browser posts them (5 of
//      each, from visitors who viewed a page first), and what they answered; /sitemap.xml;
//   4. what the shopper sees: 390 px screenshots of `/`, `/product/7` and the basket and checkout
//      forms' answers, into reports/faults/;
//   5. every answer >= 500 from the shop's own routes (pages, forms, sitemap, pictures): /api and
//      /media pass the backend's answers on, and their 502 or 504 is the gateway's word for it.
// Every request waits at most 15 s (the client's cap): an answer that takes longer shows as
// "> 15 s (cap)", so that a 300 s hang does not stall the bench. "Dies mid-run": the backend
// answers while the catalogue pages are viewed once and the visitors put product 7 in their
// baskets, then it is killed, and everything is measured after.
// Targets (issue 24), checked for every fault: each page within SSR_DATA_TIMEOUT_MS + 0.5 s; each
// form within FORM_TIMEOUT_MS + 1 s, with its message (or done); open files back within 20 of the
// baseline 10 s after the views; after the backend died, the five pages 200 with their content;
// no answer >= 500 from the shop's own routes. Writes reports/bench-faults.json and
// reports/bench-faults.md (printed too); exits with 1 when a target is missed. Everything it
// starts is stopped by its handle or process id on exit, on failure and on Ctrl+C.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import {
  blackHole,
  closedPort,
  dyingBackend,
  failingBackend,
  type FaultBackend,
  freePort,
  slowBackend,
  stubBackend,
} from '../tests/e2e/fault-backends.ts';
import { firstVisitorContext } from './first-view.ts';
import { CHROME_FLAGS } from './lighthouse.ts';
import { stopOnce } from './stop-once.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHOTS_DIR = path.join(REPO_ROOT, 'reports', 'faults');

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}: bad value ${raw}`);
  return value;
}
/** How long a page waits for its data; passed to the server. */
const SSR_DATA_TIMEOUT_MS = setting('SSR_DATA_TIMEOUT_MS', 1500);
/** Each form's budget (issue 24); passed to the server, which reads it once it has one. */
const FORM_TIMEOUT_MS = setting('FORM_TIMEOUT_MS', 8000);
/** The client's cap on every request's wait. */
const CAP_MS = 15_000;
/** How long the slow backend holds each answer. */
const SLOW_MS = 5000;
const PAGE_TARGET_MS = SSR_DATA_TIMEOUT_MS + 500;
const FORM_TARGET_MS = FORM_TIMEOUT_MS + 1000;
/** Views of each page timed (all five pages at once, this many rounds). */
const PAGE_ROUNDS = 10;
/** Visitors posting each form at once. */
const FORM_VISITORS = 5;
const VIEWS = 200;
const VIEWS_AT_ONCE = 20;
const SETTLE_MS = 10_000;
const FILES_MARGIN = 20;
const START_TIMEOUT_MS = 30_000;
/** How long a stopped server may take to finish what it was doing before it is killed. */
const STOP_GRACE_MS = 3000;
/** Bounds on the browser's waits after a page arrived (the app's start, its pictures). */
const HYDRATE_WAIT_MS = 5000;
const IDLE_WAIT_MS = 3000;
const SHOT_TIMEOUT_MS = 10_000;

interface ShopPage {
  path: string;
  /** Text of the page's content in the HTML, from stub-server/fixtures/catalog.ts. */
  marker: RegExp;
}

const PAGES: ShopPage[] = [
  { path: '/', marker: /Сезонные хиты/ },
  { path: '/catalog', marker: /Замороженные ягоды/ },
  { path: '/section/1', marker: /Садовые ягоды/ },
  { path: '/product/7', marker: /<h1[^>]*>Малина<\/h1>/ },
  { path: '/search?q=малина', marker: /Малина жёлтая/ },
];

type FormName = 'basket' | 'checkout' | 'login';

/** Each form as the shop's pages draw it (src/features), posted from the page it sits on. */
const FORMS: Record<FormName, { action: string; from: string; fields: Record<string, string> }> = {
  // BasketControl: `В корзину` of product 7.
  basket: {
    action: '/basket',
    from: '/product/7',
    fields: { product: '7', back: '/product/7', change: 'add' },
  },
  // CommitForm: phone (as its mask writes it), comment, delivery, the policy box ticked.
  checkout: {
    action: '/commit',
    from: '/commit',
    fields: { phone: '+7 (912) 345-67-89', comment: '', delivery: '1', policy_accept: 'on' },
  },
  // LoginForm: the demo user (README).
  login: {
    action: '/login/',
    from: '/login/',
    fields: { username: 'demo', password: 'berries2026' },
  },
};

type FaultName = 'black-hole' | 'closed-port' | 'slow' | 'dies-mid-run' | 'failing-500';

interface RunningBackend {
  target: string;
  /** The backend's death, for the fault that dies mid-run. */
  kill?: () => Promise<void>;
  stop(): Promise<void>;
}

interface FaultPlan {
  name: FaultName;
  label: string;
  start(): Promise<RunningBackend>;
}

/** Stops `backends` last started first. */
const stopAll = (backends: FaultBackend[]) => async () => {
  for (const backend of [...backends].reverse()) await backend.close();
};

const FAULTS: FaultPlan[] = [
  {
    name: 'black-hole',
    label: 'black hole',
    start: async () => {
      const hole = await blackHole();
      return { target: hole.url, stop: stopAll([hole]) };
    },
  },
  {
    name: 'closed-port',
    label: 'closed port',
    start: async () => {
      const port = await closedPort();
      return { target: port.url, stop: stopAll([port]) };
    },
  },
  {
    name: 'slow',
    label: `slow (${SLOW_MS / 1000} s)`,
    start: async () => {
      const stub = await stubBackend();
      try {
        const slow = await slowBackend(stub.url, SLOW_MS);
        return { target: slow.url, stop: stopAll([stub, slow]) };
      } catch (error) {
        await stub.close();
        throw error;
      }
    },
  },
  {
    name: 'dies-mid-run',
    label: 'dies mid-run',
    start: async () => {
      const stub = await stubBackend();
      try {
        const dying = await dyingBackend(stub.url);
        return { target: dying.url, kill: dying.kill, stop: stopAll([stub, dying]) };
      } catch (error) {
        await stub.close();
        throw error;
      }
    },
  },
  {
    name: 'failing-500',
    label: 'answers 500',
    start: async () => {
      const failing = await failingBackend(500);
      return { target: failing.url, stop: stopAll([failing]) };
    },
  },
];

// ---- one request, as a browser sends it, its wait capped ----

interface Answer {
  /** null: no answer within the cap, or no connection. */
  status: number | null;
  ms: number;
  capped: boolean;
  error?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

function call(
  url: URL,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const finish = (answer: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: performance.now() - started });
    };
    // A connection of its own for each request (agent: false): none is left open behind it, so
    // the server's open files count the shop's own.
    const req = request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          finish({
            status: res.statusCode ?? null,
            capped: false,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (error) =>
          finish({ status: null, capped: false, error: error.message, headers: {}, body: '' }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, capped: true, headers: {}, body: '' });
      req.destroy();
    }, CAP_MS);
    req.on('error', (error) =>
      finish({ status: null, capped: false, error: error.message, headers: {}, body: '' }),
    );
    req.end(init.body);
  });
}

/** A visitor: their cookies, kept as a browser keeps them for one site. */
class Visitor {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly shop: URL) {}

  /**
   * One who has been here before: the session and CSRF token the backend gave them, and the
   * cookie notice accepted. Each of their views asks the backend for their basket too.
   */
  static returning(shop: URL): Visitor {
    const visitor = new Visitor(shop);
    visitor.cookies.set('sessionid', randomBytes(16).toString('hex'));
    visitor.cookies.set('csrftoken', randomBytes(16).toString('hex'));
    visitor.cookies.set('cookieAccepted', 'true');
    return visitor;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return {
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Accept-Language': 'ru-RU,ru;q=0.9',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Dest': 'document',
      ...(cookie ? { Cookie: cookie } : {}),
      ...extra,
    };
  }

  private keep(answer: Answer): Answer {
    for (const line of answer.headers['set-cookie'] ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', value = ''] = attribute.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(value) <= Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
    return answer;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async view(pagePath: string): Promise<Answer> {
    return this.keep(await call(new URL(pagePath, this.shop), { headers: this.headers({}) }));
  }

  /** The form posted from `from` as a browser posts it: same-origin, urlencoded. */
  async post(action: string, from: string, fields: Record<string, string>): Promise<Answer> {
    return this.keep(
      await call(new URL(action, this.shop), {
        method: 'POST',
        headers: this.headers({
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: this.shop.origin,
          Referer: new URL(from, this.shop).href,
          'Sec-Fetch-Site': 'same-origin',
          'Sec-Fetch-User': '?1',
        }),
        body: new URLSearchParams(fields).toString(),
      }),
    );
  }
}

// ---- the shop's server as a child process ----

interface ShopProcess {
  url: URL;
  pid: number;
  /** Set when it exited before it was asked to stop. */
  exitedEarly(): number | string | null;
  /** The end of what it wrote to stderr. */
  errors(): string;
  stop(): Promise<void>;
}

async function startShop(target: string, imageDir: string): Promise<ShopProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'main.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        API_TARGET: target,
        HOST: '127.0.0.1',
        PORT: String(port),
        ACCESS_LOG: '0',
        SSR_DATA_TIMEOUT_MS: String(SSR_DATA_TIMEOUT_MS),
        FORM_TIMEOUT_MS: String(FORM_TIMEOUT_MS),
        IMAGE_CACHE_DIR: imageDir,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  if (child.pid === undefined) throw new Error('the shop did not start');
  const pid = child.pid;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exit: number | string | null = null;
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!stopping) exit = code ?? signal;
      resolve();
    }),
  );
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // It finishes the requests in flight first: behind a stalled backend those never end.
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  const url = new URL(`http://127.0.0.1:${port}/`);
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exit !== null) throw new Error(`the shop exited (${exit}) on start:\n${stderr}`);
    const health = await call(new URL('/healthz', url));
    if (health.status === 200) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the shop did not answer /healthz within ${START_TIMEOUT_MS} ms:\n${stderr}`);
    }
    await sleep(100);
  }
  return { url, pid, exitedEarly: () => exit, errors: () => stderr, stop };
}

async function openFiles(pid: number): Promise<number | null> {
  try {
    return (await readdir(`/proc/${pid}/fd`)).length;
  } catch {
    return null;
  }
}

/**
 * The count once it holds still (two reads 250 ms apart agree; at most 5 s): connections to a
 * backend that just died take a moment to close, and are no baseline.
 */
async function steadyOpenFiles(pid: number): Promise<number | null> {
  let last = await openFiles(pid);
  for (let read = 0; read < 20; read += 1) {
    await sleep(250);
    const now = await openFiles(pid);
    if (now === last) return now;
    last = now;
  }
  return last;
}

// ---- figures ----

/** Answers >= 500 from the shop's own routes, as they were counted. */
interface ShopError {
  where: string;
  status: number;
}

interface Counter {
  shopErrors: ShopError[];
  /** Answers >= 500 under /api and /media that the browser got (the backend's, passed on). */
  gatewayErrors: number;
}

function countAnswer(counter: Counter, where: string, status: number | null): void {
  if (status !== null && status >= 500) counter.shopErrors.push({ where, status });
}

/** Nearest rank; a capped wait counts as Infinity. */
function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] ?? NaN;
}

const waited = (answer: Answer) => (answer.capped ? Infinity : answer.ms);

interface PageFigures {
  path: string;
  samples_ms: (number | null)[];
  p50_ms: number | null;
  p99_ms: number | null;
  capped: number;
  /** Status (or `none`) -> count. */
  statuses: Record<string, number>;
  /** Views that answered 200 with the page's content. */
  with_content: number;
  views: number;
}

interface FormTrial {
  ms: number | null;
  status: number | null;
  /** What came back, in a few words. */
  answer: string;
  /** The shopper's message: a notice for the next page, or the form's own. */
  message: string | null;
  /** The form did its work (303 without a message). */
  done: boolean;
}

interface FormFigures {
  form: FormName;
  action: string;
  trials: FormTrial[];
  p50_ms: number | null;
  p99_ms: number | null;
  capped: number;
}

interface Shot {
  name: string;
  file: string;
  /** Where the browser ended up, and what it showed (alerts, the page's content). */
  note: string;
}

interface TargetCheck {
  target: string;
  met: boolean;
  detail: string;
}

interface FaultFigures {
  fault: FaultName;
  label: string;
  open_files: {
    before: number | null;
    after_views: number | null;
    after_10s: number | null;
    views: number;
    views_s: number;
    /** Status (or `none`) -> count. */
    view_statuses: Record<string, number>;
  };
  pages: PageFigures[];
  forms: FormFigures[];
  sitemap: { ms: number | null; status: number | null };
  screenshots: Shot[];
  shop_errors: ShopError[];
  gateway_errors: number;
  requests_off_machine: string[];
  exited_early: number | string | null;
  server_stderr: string;
  targets: TargetCheck[];
  duration_s: number;
}

const msOrNull = (ms: number) => (Number.isFinite(ms) ? Math.round(ms) : null);
const statusKey = (answer: Answer) =>
  answer.status === null ? (answer.capped ? 'no answer' : 'failed') : String(answer.status);

function tally(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** The HTML a visitor reads: without scripts (the embedded page data), styles and the head. */
function visibleHtml(html: string): string {
  return html
    .replace(/<head[\s\S]*?<\/head>/i, '')
    .replace(/<script[\s\S]*?<\/script>/gi, '')
    .replace(/<style[\s\S]*?<\/style>/gi, '');
}

const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');

/** The message the answer carries: the notice cookie for the next page, or the page's own. */
function formMessage(answer: Answer): string | null {
  for (const line of answer.headers['set-cookie'] ?? []) {
    const match = /^notice=([^;]+)/.exec(line);
    if (match?.[1]) {
      try {
        return decodeURIComponent(match[1]);
      } catch {
        return match[1];
      }
    }
  }
  const notice = /<[^>]*data-testid="posted-notice"[^>]*>([^<]*)</.exec(answer.body)?.[1];
  return notice ? decodeEntities(notice).trim() : null;
}

function formTrial(answer: Answer): FormTrial {
  const message = formMessage(answer);
  let said: string;
  if (answer.capped) said = `no answer within ${CAP_MS / 1000} s`;
  else if (answer.status === null) said = `failed: ${answer.error ?? 'no answer'}`;
  else if (answer.status >= 300 && answer.status < 400)
    said = `${answer.status} → ${String(answer.headers.location ?? '?')}`;
  else if (answer.status === 200) said = '200, the form again';
  else said = `${answer.status} ${answer.body.slice(0, 60).replace(/\s+/g, ' ')}`;
  return {
    ms: answer.capped ? null : Math.round(answer.ms),
    status: answer.status,
    answer: said,
    message,
    done: answer.status === 303 && message === null,
  };
}

// ---- the measurements ----

async function viewMany(
  shop: URL,
  counter: Counter,
): Promise<{ statuses: Record<string, number>; seconds: number }> {
  const started = performance.now();
  const keys: string[] = [];
  for (let round = 0; round < VIEWS / VIEWS_AT_ONCE; round += 1) {
    const answers = await Promise.all(
      Array.from({ length: VIEWS_AT_ONCE }, async (_, index) => {
        const page = PAGES[(round * VIEWS_AT_ONCE + index) % PAGES.length] as ShopPage;
        const answer = await Visitor.returning(shop).view(page.path);
        countAnswer(counter, page.path, answer.status);
        return answer;
      }),
    );
    keys.push(...answers.map(statusKey));
  }
  return { statuses: tally(keys), seconds: (performance.now() - started) / 1000 };
}

async function timePages(shop: URL, counter: Counter): Promise<PageFigures[]> {
  const answers = new Map<string, Answer[]>(PAGES.map((page) => [page.path, []]));
  for (let round = 0; round < PAGE_ROUNDS; round += 1) {
    await Promise.all(
      PAGES.map(async (page) => {
        const answer = await new Visitor(shop).view(page.path);
        countAnswer(counter, page.path, answer.status);
        answers.get(page.path)?.push(answer);
      }),
    );
  }
  return PAGES.map((page) => {
    const got = answers.get(page.path) ?? [];
    const times = got.map(waited);
    return {
      path: page.path,
      samples_ms: times.map(msOrNull),
      p50_ms: msOrNull(percentile(times, 0.5)),
      p99_ms: msOrNull(percentile(times, 0.99)),
      capped: got.filter((answer) => answer.capped).length,
      statuses: tally(got.map(statusKey)),
      with_content: got.filter(
        (answer) => answer.status === 200 && page.marker.test(visibleHtml(answer.body)),
      ).length,
      views: got.length,
    };
  });
}

interface FormVisitors {
  buyers: Visitor[];
  signers: Visitor[];
}

/**
 * Visitors as they come to the forms: a buyer has viewed product 7 (and, when the backend still
 * answers, put it in the basket), a signer has opened the login page.
 */
async function formVisitors(shop: URL, withBasket: boolean): Promise<FormVisitors> {
  const buyers = Array.from({ length: FORM_VISITORS }, () => new Visitor(shop));
  const signers = Array.from({ length: FORM_VISITORS }, () => new Visitor(shop));
  await Promise.all([
    ...buyers.map(async (buyer) => {
      await buyer.view(FORMS.basket.from);
      if (withBasket) await buyer.post(FORMS.basket.action, FORMS.basket.from, FORMS.basket.fields);
    }),
    ...signers.map((signer) => signer.view(FORMS.login.from)),
  ]);
  return { buyers, signers };
}

async function timeForms(visitors: FormVisitors, counter: Counter): Promise<FormFigures[]> {
  const answers: Record<FormName, Answer[]> = { basket: [], checkout: [], login: [] };
  const post = async (visitor: Visitor, form: FormName) => {
    const { action, from, fields } = FORMS[form];
    const answer = await visitor.post(action, from, fields);
    countAnswer(counter, `POST ${action}`, answer.status);
    answers[form].push(answer);
  };
  await Promise.all([
    // A buyer changes the basket, then checks out.
    ...visitors.buyers.map(async (buyer) => {
      await post(buyer, 'basket');
      await post(buyer, 'checkout');
    }),
    ...visitors.signers.map((signer) => post(signer, 'login')),
  ]);
  return (Object.keys(answers) as FormName[]).map((form) => {
    const times = answers[form].map(waited);
    return {
      form,
      action: FORMS[form].action,
      trials: answers[form].map(formTrial),
      p50_ms: msOrNull(percentile(times, 0.5)),
      p99_ms: msOrNull(percentile(times, 0.99)),
      capped: answers[form].filter((answer) => answer.capped).length,
    };
  });
}

// ---- what the shopper sees ----

/** The page's alerts and whether its content is there, in a few words. */
async function whatShows(page: Page, marker?: RegExp): Promise<string> {
  const looking = page
    .evaluate(() => ({
      alerts: [...document.querySelectorAll('[role="alert"]')]
        .map((element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
        .filter((text, index, all) => text && all.indexOf(text) === index),
      html: document.querySelector('main')?.innerHTML ?? '',
      busy: document.querySelectorAll('main [aria-busy="true"]').length,
    }))
    .catch(() => null);
  const seen = (await Promise.race([looking, sleep(SHOT_TIMEOUT_MS, null)])) ?? {
    alerts: [] as string[],
    html: '',
    busy: 0,
  };
  const parts = [`at ${new URL(page.url()).pathname}`];
  if (marker) parts.push(marker.test(seen.html) ? 'content shown' : 'content missing');
  if (seen.busy > 0) parts.push(`${seen.busy} part(s) loading`);
  if (seen.alerts.length > 0) parts.push(`alerts: ${seen.alerts.map((a) => `«${a}»`).join(' ')}`);
  return parts.join('; ');
}

/** A screenshot of what the page shows now, bounded: a page that draws no frame gets none. */
async function snap(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: file, timeout: SHOT_TIMEOUT_MS }).catch(() => {});
}

/** After the document came: the app's start and the page's pictures, each bounded. */
async function settle(page: Page): Promise<void> {
  await page
    .locator('html[data-hydrated]')
    .waitFor({ state: 'attached', timeout: HYDRATE_WAIT_MS })
    .catch(() => {});
  await page.waitForLoadState('networkidle', { timeout: IDLE_WAIT_MS }).catch(() => {});
}

async function shootPage(
  context: BrowserContext,
  shop: URL,
  fault: FaultName,
  shopPage: ShopPage,
  name: string,
): Promise<Shot> {
  const page = await context.newPage();
  const file = path.join(SHOTS_DIR, `${fault}-${name}.png`);
  try {
    const response = await page
      .goto(new URL(shopPage.path, shop).href, { waitUntil: 'load', timeout: CAP_MS })
      .catch(() => null);
    await settle(page);
    await snap(page, file);
    const arrived = response ? `${response.status()}` : `not loaded within ${CAP_MS / 1000} s`;
    return { name, file, note: `${arrived}; ${await whatShows(page, shopPage.marker)}` };
  } finally {
    await page.close().catch(() => {});
  }
}

/** Posts a form from its page as a shopper's browser does, and shows what comes back. */
async function shootForm(
  context: BrowserContext,
  shop: URL,
  fault: FaultName,
  form: FormName,
): Promise<Shot> {
  const page = await context.newPage();
  const name = `${form}-form`;
  const file = path.join(SHOTS_DIR, `${fault}-${name}.png`);
  const { action, from, fields } = FORMS[form];
  try {
    await page
      .goto(new URL(from, shop).href, { waitUntil: 'load', timeout: CAP_MS })
      .catch(() => {});
    await settle(page);
    // While a post waits for its answer Chromium draws no new frame: what the shopper looks at
    // then is the page they posted from, taken now.
    const posting = await page.screenshot({ timeout: SHOT_TIMEOUT_MS }).catch(() => null);
    const postingShows = await whatShows(page);
    const started = performance.now();
    const answered = page
      .waitForEvent('framenavigated', {
        predicate: (frame) => frame === page.mainFrame(),
        timeout: CAP_MS,
      })
      .then(
        () => true,
        () => false,
      );
    // A form element of the page's own, submitted: the request is the browser's, as a tap on
    // the form's button before the app has started sends it (the app may have the page already).
    await page.evaluate(
      ({ action, fields }) => {
        const element = document.createElement('form');
        element.method = 'post';
        element.action = action;
        for (const [key, value] of Object.entries(fields)) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = key;
          input.value = value;
          element.append(input);
        }
        document.body.append(element);
        element.submit();
      },
      { action, fields },
    );
    const came = await answered;
    const ms = performance.now() - started;
    if (!came) {
      if (posting) await writeFile(file, posting);
      return {
        name,
        file,
        note: `no answer within ${CAP_MS / 1000} s: the page it was posted from still shows; ${postingShows}`,
      };
    }
    await page.waitForLoadState('load', { timeout: CAP_MS }).catch(() => {});
    await settle(page);
    await snap(page, file);
    return {
      name,
      file,
      note: `answered in ${(ms / 1000).toFixed(1)} s; ${await whatShows(page)}`,
    };
  } finally {
    await page.close().catch(() => {});
  }
}

async function shoot(
  browser: Browser,
  shop: URL,
  fault: FaultName,
  counter: Counter,
  offMachine: Set<string>,
): Promise<Shot[]> {
  const context = await firstVisitorContext(browser);
  try {
    // The cookie notice would cover the lower part of the page.
    await context.addCookies([{ name: 'cookieAccepted', value: 'true', url: shop.href }]);
    await context.route(
      (url) => url.hostname !== '127.0.0.1' && url.protocol.startsWith('http'),
      (route) => {
        offMachine.add(route.request().url());
        return route.abort('blockedbyclient');
      },
    );
    context.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin !== shop.origin || response.status() < 500) return;
      // The image route's placeholder carries the backend's failure as its status (502, 504),
      // as the proxy passes /api and /media answers on: gateway answers, not the shop's faults.
      if (/^\/(api|media|img)\//.test(url.pathname)) counter.gatewayErrors += 1;
      else countAnswer(counter, `browser ${url.pathname}`, response.status());
    });
    const home = PAGES[0] as ShopPage;
    const product = PAGES[3] as ShopPage;
    const pages = await Promise.all([
      shootPage(context, shop, fault, home, 'home'),
      shootPage(context, shop, fault, product, 'product-7'),
    ]);
    // Two visitors at once: the basket's answer and the checkout's, each from its own page.
    const buyerContext = await firstVisitorContext(browser);
    try {
      await buyerContext.addCookies([{ name: 'cookieAccepted', value: 'true', url: shop.href }]);
      const forms = await Promise.all([
        shootForm(context, shop, fault, 'basket'),
        shootForm(buyerContext, shop, fault, 'checkout'),
      ]);
      return [...pages, ...forms];
    } finally {
      await buyerContext.close().catch(() => {});
    }
  } finally {
    await context.close().catch(() => {});
  }
}

// ---- one fault ----

function checkTargets(figures: Omit<FaultFigures, 'targets' | 'duration_s'>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const slowPages = figures.pages.filter(
    (page) => page.capped > 0 || (page.p99_ms ?? Infinity) > PAGE_TARGET_MS,
  );
  checks.push({
    target: `every page ≤ ${PAGE_TARGET_MS} ms`,
    met: slowPages.length === 0,
    detail: slowPages.map((page) => `${page.path} p99 ${duration(page.p99_ms)}`).join(', '),
  });
  const formMisses = figures.forms.flatMap((form) =>
    form.trials
      .filter(
        (trial) =>
          trial.ms === null || trial.ms > FORM_TARGET_MS || (!trial.done && !trial.message),
      )
      .map(() => form.form),
  );
  checks.push({
    target: `every form ≤ ${FORM_TARGET_MS} ms, with its message (or done)`,
    met: formMisses.length === 0,
    detail: Object.entries(tally(formMisses))
      .map(([form, count]) => `${form} ${count}/${FORM_VISITORS}`)
      .join(', '),
  });
  const { before, after_10s: after } = figures.open_files;
  checks.push({
    target: `open files ≤ baseline + ${FILES_MARGIN} 10 s after ${VIEWS} views`,
    met: before !== null && after !== null && after <= before + FILES_MARGIN,
    detail: `${before ?? '?'} → ${after ?? '?'}`,
  });
  if (figures.fault === 'dies-mid-run') {
    const empty = figures.pages.filter((page) => page.with_content < page.views);
    checks.push({
      target: 'after the backend died: the five pages 200 with their content',
      met: empty.length === 0,
      detail: empty.map((page) => `${page.path} ${page.with_content}/${page.views}`).join(', '),
    });
  }
  checks.push({
    target: 'no answer ≥ 500 from the shop’s own routes',
    met: figures.shop_errors.length === 0,
    detail: Object.entries(
      tally(figures.shop_errors.map((error) => `${error.where} ${error.status}`)),
    )
      .map(([what, count]) => `${what} ×${count}`)
      .join(', '),
  });
  if (figures.exited_early !== null) {
    checks.push({
      target: 'the server keeps running',
      met: false,
      detail: `exited: ${figures.exited_early}`,
    });
  }
  return checks;
}

async function benchFault(
  plan: FaultPlan,
  browser: Browser,
  workDir: string,
  started: { stop?: () => Promise<void> },
): Promise<FaultFigures> {
  const began = performance.now();
  const say = (text: string) =>
    console.error(
      `faults ${plan.label} +${((performance.now() - began) / 1000).toFixed(0)} s: ${text}`,
    );
  const backend = await plan.start();
  let shop: ShopProcess | undefined;
  // What Ctrl+C must stop while this fault runs, last started first.
  started.stop = async () => {
    await shop?.stop();
    await backend.stop();
  };
  try {
    const server = await startShop(backend.target, path.join(workDir, `images-${plan.name}`));
    shop = server;
    const counter: Counter = { shopErrors: [], gatewayErrors: 0 };
    let visitors: FormVisitors | undefined;
    if (backend.kill) {
      // The catalogue seen while the backend answers, baskets filled; then it dies.
      await Promise.all(PAGES.map((page) => new Visitor(server.url).view(page.path)));
      visitors = await formVisitors(server.url, true);
      await backend.kill();
    }
    const before = await steadyOpenFiles(server.pid);
    const views = await viewMany(server.url, counter);
    const afterViews = await openFiles(server.pid);
    await sleep(SETTLE_MS);
    const after = await openFiles(server.pid);
    say(`open files ${before} → ${afterViews} → ${after}`);

    const pages = await timePages(server.url, counter);
    say('pages timed');
    visitors ??= await formVisitors(server.url, false);
    const [forms, sitemap] = await Promise.all([
      timeForms(visitors, counter),
      call(new URL('/sitemap.xml', server.url)),
    ]);
    // A sitemap never walked yet answers 503 with Retry-After: the crawler is asked to come back
    // (what the sitemap protocol expects), not a failure of the shop's.
    if (!(sitemap.status === 503 && sitemap.headers['retry-after'])) {
      countAnswer(counter, '/sitemap.xml', sitemap.status);
    }
    say('forms timed');
    const offMachine = new Set<string>();
    const screenshots = await shoot(browser, server.url, plan.name, counter, offMachine);
    say('screenshots taken');

    const figures = {
      fault: plan.name,
      label: plan.label,
      open_files: {
        before,
        after_views: afterViews,
        after_10s: after,
        views: VIEWS,
        views_s: Number(views.seconds.toFixed(1)),
        view_statuses: views.statuses,
      },
      pages,
      forms,
      sitemap: { ms: sitemap.capped ? null : Math.round(sitemap.ms), status: sitemap.status },
      screenshots,
      shop_errors: counter.shopErrors,
      gateway_errors: counter.gatewayErrors,
      requests_off_machine: [...offMachine],
      exited_early: server.exitedEarly(),
      server_stderr: server.errors(),
    };
    return {
      ...figures,
      targets: checkTargets(figures),
      duration_s: Math.round((performance.now() - began) / 1000),
    };
  } finally {
    await started.stop?.();
    started.stop = undefined;
  }
}

// ---- the report ----

function duration(ms: number | null): string {
  if (ms === null) return `> ${CAP_MS / 1000} s (cap)`;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}

const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => (Object.keys(statuses).length === 1 ? status : `${status}×${count}`))
    .join(' ');

const mark = (met: boolean) => (met ? 'pass' : '**miss**');

function outcomes(form: FormFigures): string {
  const said = form.trials.map((trial) =>
    trial.message ? `${trial.answer}, «${trial.message}»` : trial.answer,
  );
  return Object.entries(tally(said))
    .map(([text, count]) => `${count}× ${text}`)
    .join('; ');
}

export function faultsTable(all: FaultFigures[]): string {
  const header = `| | ${all.map((figures) => figures.label).join(' | ')} |`;
  const rule = `| --- |${all.map(() => ' --- |').join('')}`;
  const row = (title: string, cell: (figures: FaultFigures) => string) =>
    `| ${title} | ${all.map(cell).join(' | ')} |`;
  const pageRows = PAGES.map((shopPage) =>
    row(`\`${shopPage.path}\` p50 / p99, status, content`, (figures) => {
      const page = figures.pages.find((candidate) => candidate.path === shopPage.path);
      if (!page) return '—';
      const late = page.capped > 0 || (page.p99_ms ?? Infinity) > PAGE_TARGET_MS;
      return `${duration(page.p50_ms)} / ${duration(page.p99_ms)}${late ? ' (miss)' : ''}, ${statusText(page.statuses)}, ${page.with_content}/${page.views}`;
    }),
  );
  const formRows = (Object.keys(FORMS) as FormName[]).map((name) =>
    row(`${name} form (\`POST ${FORMS[name].action}\`) p50 / p99`, (figures) => {
      const form = figures.forms.find((candidate) => candidate.form === name);
      if (!form) return '—';
      const late = form.trials.some((trial) => trial.ms === null || trial.ms > FORM_TARGET_MS);
      return `${duration(form.p50_ms)} / ${duration(form.p99_ms)}${late ? ' (miss)' : ''}`;
    }),
  );
  const lines = [
    `Client cap: every request waits at most ${CAP_MS / 1000} s; "> ${CAP_MS / 1000} s (cap)" means no answer by then. Pages: ${PAGE_ROUNDS} views each, the five at once; content = 200 with the page's fixture text in its HTML. Forms: ${FORM_VISITORS} visitors each, at once. Budgets passed to the server: SSR_DATA_TIMEOUT_MS=${SSR_DATA_TIMEOUT_MS}, FORM_TIMEOUT_MS=${FORM_TIMEOUT_MS}.`,
    '',
    header,
    rule,
    ...pageRows,
    ...formRows,
    row(
      '`/sitemap.xml`',
      (figures) => `${duration(figures.sitemap.ms)}, ${figures.sitemap.status ?? 'no answer'}`,
    ),
    row(
      `open files: before → after ${VIEWS} views → 10 s later`,
      (figures) =>
        `${figures.open_files.before ?? '?'} → ${figures.open_files.after_views ?? '?'} → ${figures.open_files.after_10s ?? '?'}`,
    ),
    row('answers ≥ 500 from the shop’s own routes', (figures) =>
      String(figures.shop_errors.length),
    ),
    row(
      '/api, /media, /img answers ≥ 500 in the browser (the backend’s failure passed on)',
      (figures) => String(figures.gateway_errors),
    ),
    '',
    '**What the forms answered**',
    '',
    `| form | ${all.map((figures) => figures.label).join(' | ')} |`,
    rule,
    ...(Object.keys(FORMS) as FormName[]).map(
      (name) =>
        `| ${name} | ${all
          .map((figures) => {
            const form = figures.forms.find((candidate) => candidate.form === name);
            return form ? outcomes(form) : '—';
          })
          .join(' | ')} |`,
    ),
    '',
    '**Targets**',
    '',
    `| target | ${all.map((figures) => figures.label).join(' | ')} |`,
    rule,
  ];
  const targets = [...new Set(all.flatMap((figures) => figures.targets.map((t) => t.target)))];
  for (const target of targets) {
    lines.push(
      `| ${target} | ${all
        .map((figures) => {
          const check = figures.targets.find((candidate) => candidate.target === target);
          if (!check) return '—';
          return check.met ? 'pass' : `${mark(false)}${check.detail ? ` (${check.detail})` : ''}`;
        })
        .join(' | ')} |`,
    );
  }
  lines.push('', '**What the shopper sees** (390 px, `reports/faults/`)', '');
  for (const figures of all) {
    for (const shot of figures.screenshots) {
      lines.push(`- ${figures.label}, \`${path.relative(REPO_ROOT, shot.file)}\`: ${shot.note}`);
    }
  }
  const off = all.flatMap((figures) => figures.requests_off_machine);
  if (off.length > 0) lines.push('', `**Requests off the machine:** ${off.join(', ')}`);
  const exited = all.filter((figures) => figures.exited_early !== null);
  if (exited.length > 0) {
    lines.push(
      '',
      `**The server exited** behind: ${exited.map((figures) => `${figures.label} (${figures.exited_early})`).join(', ')}`,
    );
  }
  const met = all.every((figures) => figures.targets.every((check) => check.met));
  lines.push('', `All targets met: ${met ? 'yes' : '**NO**'}.`);
  return lines.join('\n');
}

// ---- `npm run bench:faults` ----

/** Set on Ctrl+C: what fails after it is the interruption, not a result. */
let interruptedBy: NodeJS.Signals | undefined;

async function main(): Promise<number> {
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'server', 'entry-server.js'))) {
    console.error('bench:faults: the build in dist/ is missing: run npm run build first');
    return 2;
  }
  if (!existsSync(chromePath)) {
    console.error(`bench:faults: Chromium not found at ${chromePath} (set CHROME_PATH)`);
    return 2;
  }
  const began = performance.now();
  const [load1 = 0] = os.loadavg();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-faults-'));
  await mkdir(SHOTS_DIR, { recursive: true });
  let browser: Browser | undefined;
  const running: { stop?: () => Promise<void> } = {};
  const stop = stopOnce(
    async () => {
      await running.stop?.().catch(() => {});
      await browser?.close().catch(() => {});
      await rm(workDir, { recursive: true, force: true });
    },
    (signal) => (interruptedBy = signal),
  );
  const all: FaultFigures[] = [];
  try {
    browser = await chromium.launch({
      executablePath: chromePath,
      headless: true,
      args: CHROME_FLAGS,
      // Ctrl+C is handled above: Playwright's own handler would exit before the servers stopped.
      handleSIGINT: false,
      handleSIGTERM: false,
    });
    for (const plan of FAULTS) {
      console.error(`faults ${plan.label}: starting`);
      all.push(await benchFault(plan, browser, workDir, running));
    }
  } finally {
    await stop();
  }
  const table = faultsTable(all);
  const seconds = (performance.now() - began) / 1000;
  const machine = `Machine: ${os.cpus().length} CPUs, load average ${load1.toFixed(2)} at the start, Node ${process.version}; ${seconds.toFixed(0)} s.`;
  const markdown = `# Faults — ${new Date().toISOString()}\n\n${table}\n\n${machine}\n`;
  console.log(markdown);
  const reports = path.join(REPO_ROOT, 'reports');
  await writeFile(path.join(reports, 'bench-faults.md'), markdown);
  await writeFile(
    path.join(reports, 'bench-faults.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        settings: {
          cap_ms: CAP_MS,
          ssr_data_timeout_ms: SSR_DATA_TIMEOUT_MS,
          form_timeout_ms: FORM_TIMEOUT_MS,
          slow_ms: SLOW_MS,
          page_rounds: PAGE_ROUNDS,
          form_visitors: FORM_VISITORS,
          views: VIEWS,
          views_at_once: VIEWS_AT_ONCE,
          settle_ms: SETTLE_MS,
        },
        faults: all,
        duration_s: Math.round(seconds),
      },
      null,
      2,
    )}\n`,
  );
  return all.every((figures) => figures.targets.every((check) => check.met)) ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main().catch((error: unknown) => {
    if (interruptedBy) return 130;
    throw error;
  });
}
