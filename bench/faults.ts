// `npm run bench:faults` (issue 24; it builds first): the production server (`startShopProcess`,
// a process of its own, so that its open files can be counted in /proc/PID/fd) in front of the
// backends of tests/e2e/fault-backends.ts: one that accepts connections and never answers, a
// closed port, one that holds every answer 5 s, one that dies after the catalogue was seen (and
// the visitors filled their baskets), and one that answers 500 with Django's error page. Per fault:
//   1. open files of the server before, and 10 s after, 200 page views (20 at a time) of
//      returning visitors (a session cookie: their basket is asked for too);
//   2. answer times of five pages (p50, p99 of 10 newcomers' views each), their status and
//      whether their content is there (a marker from the stub's fixtures in the HTML);
//   3. answer times of the basket, checkout and login forms, posted as a browser posts them (5 of
//      each, from visitors who viewed a page first), and what they answered; /sitemap.xml;
//   4. every answer ≥ 500 from the shop's own routes (pages, forms, sitemap).
// Every request waits at most 15 s: a longer wait shows as "no answer". Targets: each page within
// SSR_DATA_TIMEOUT_MS + 0.5 s; each form within FORM_TIMEOUT_MS + 1 s, with its message (or
// done); open files back within 20 of the baseline; after the backend died, the five pages 200
// with their content; no answer ≥ 500 of the shop's own; the server keeps running. Writes
// reports/bench-faults.json and .md. What the shopper sees then (each form's message, what was
// typed, the catalogue in an outage) is a test now: tests/e2e/backend-faults.test.ts.
import { readdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  blackHole,
  closedPort,
  dyingBackend,
  failingBackend,
  slowBackend,
  stubBackend,
} from '../tests/e2e/fault-backends.ts';
import { type Instance, startShopProcess } from '../tests/e2e/nginx-recipe.ts';
import { type AtExit, runBench } from './lib/main.ts';
import { mark, ms, writeReport } from './lib/report.ts';
import { requireBuild, tempDir } from './lib/shop.ts';
import { percentile, tally } from './lib/stats.ts';
import { type Answer, Visitor } from './lib/visitor.ts';

const SSR_DATA_TIMEOUT_MS = 1500;
const FORM_TIMEOUT_MS = 8000;
const CAP_MS = 15_000;
const SLOW_MS = 5000;
const PAGE_TARGET_MS = SSR_DATA_TIMEOUT_MS + 500;
const FORM_TARGET_MS = FORM_TIMEOUT_MS + 1000;
const PAGE_ROUNDS = 10;
const FORM_VISITORS = 5;
const VIEWS = 200;
const VIEWS_AT_ONCE = 20;
const SETTLE_MS = 10_000;
const FILES_MARGIN = 20;
/** How long a stopped server may finish what it was doing (behind a stalled backend: never). */
const STOP_GRACE_MS = 3000;

/** Each page with text of its content in the HTML (stub-server/fixtures/catalog.ts). */
const PAGES: [string, RegExp][] = [
  ['/', /Сезонные хиты/],
  ['/catalog', /Замороженные ягоды/],
  ['/section/1', /Садовые ягоды/],
  ['/product/7', /<h1[^>]*>Малина<\/h1>/],
  ['/search?q=малина', /Малина жёлтая/],
];

type FormName = 'basket' | 'checkout' | 'login';

/** Each form as the shop's pages draw it (src/features), posted from the page it sits on. */
const FORMS: Record<FormName, { action: string; from: string; fields: Record<string, string> }> = {
  basket: {
    action: '/basket',
    from: '/product/7',
    fields: { product: '7', back: '/product/7', change: 'add' },
  },
  checkout: {
    action: '/commit',
    from: '/commit',
    fields: { phone: '+7 (912) 345-67-89', comment: '', delivery: '1', policy_accept: 'on' },
  },
  // The demo user (README).
  login: {
    action: '/login/',
    from: '/login/',
    fields: { username: 'demo', password: 'berries2026' },
  },
};

/** Each fault: its backend's address, and (dies mid-run) how to kill it. */
const FAULTS: Record<
  string,
  (atExit: AtExit) => Promise<{ url: string; kill?: () => Promise<void> }>
> = {
  'black hole': async (atExit) => started(atExit, await blackHole()),
  'closed port': async (atExit) => started(atExit, await closedPort()),
  [`slow (${SLOW_MS / 1000} s)`]: async (atExit) => {
    const stub = started(atExit, await stubBackend());
    return started(atExit, await slowBackend(stub.url, SLOW_MS));
  },
  'dies mid-run': async (atExit) => {
    const stub = started(atExit, await stubBackend());
    return started(atExit, await dyingBackend(stub.url));
  },
  'answers 500': async (atExit) => started(atExit, await failingBackend(500)),
};

function started<T extends { close(): Promise<void> }>(atExit: AtExit, backend: T): T {
  atExit(() => backend.close());
  return backend;
}

async function openFiles(pid: number | undefined): Promise<number | null> {
  return readdir(`/proc/${pid}/fd`).then(
    (files) => files.length,
    () => null,
  );
}

/** The count once two reads 250 ms apart agree (at most 5 s): a dead backend's sockets close. */
async function steadyOpenFiles(pid: number | undefined): Promise<number | null> {
  let last = await openFiles(pid);
  for (let read = 0; read < 20; read += 1) {
    await sleep(250);
    const now = await openFiles(pid);
    if (now === last) return now;
    last = now;
  }
  return last;
}

const waited = (answer: Answer) => (answer.capped ? Infinity : answer.ms);
const statusOf = (answer: Answer) =>
  answer.status === null ? (answer.capped ? 'no answer' : 'failed') : String(answer.status);
const timesOf = (answers: Answer[]) => {
  const times = answers.map(waited);
  const round = (value: number) => (Number.isFinite(value) ? Math.round(value) : null);
  return { p50_ms: round(percentile(times, 0.5)), p99_ms: round(percentile(times, 0.99)) };
};

/** The HTML a visitor reads: without the head, scripts (the page's data) and styles. */
const visibleHtml = (html: string) =>
  html.replace(/<head[\s\S]*?<\/head>|<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, '');

/** What a form's answer said, in a few words: its notice for the next page, or its own. */
function formSaid(answer: Answer, visitor: Visitor): { said: string; message: boolean } {
  const notice = visitor.cookies.get('notice');
  const own = /data-testid="posted-notice"/.test(answer.body);
  const status = statusOf(answer);
  const where = answer.headers.location ? ` → ${String(answer.headers.location)}` : '';
  if (notice) return { said: `${status}${where}, «${decodeURIComponent(notice)}»`, message: true };
  return { said: `${status}${where}${own ? ', its message' : ''}`, message: own };
}

type FaultFigures = Awaited<ReturnType<typeof benchFault>>;

async function benchFault(name: string, start: (typeof FAULTS)[string], workDir: string) {
  const say = (text: string) => console.error(`faults ${name}: ${text}`);
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const backend = await start((stop) => stops.push(stop));
    const shop: Instance = await startShopProcess({
      env: {
        NODE_ENV: 'production',
        API_TARGET: backend.url.replace(/\/$/, ''),
        SSR_DATA_TIMEOUT_MS: String(SSR_DATA_TIMEOUT_MS),
        FORM_TIMEOUT_MS: String(FORM_TIMEOUT_MS),
        IMAGE_CACHE_DIR: `${workDir}/images-${name.replace(/\W+/g, '-')}`,
      },
    });
    stops.push(async () => {
      const kill = setTimeout(() => shop.child.kill('SIGKILL'), STOP_GRACE_MS);
      await shop.close();
      clearTimeout(kill);
    });
    const url = new URL(shop.url);
    const pid = shop.child.pid;
    const visitor = (cookies: Record<string, string> = {}) => new Visitor(url, CAP_MS, cookies);
    const shopErrors: string[] = [];
    const count = (where: string, answer: Answer) => {
      if ((answer.status ?? 0) >= 500) shopErrors.push(`${where} ${answer.status}`);
      return answer;
    };
    // A buyer has viewed product 7 (and put it in the basket while the backend still answers),
    // a signer has opened the login page.
    const buyers = Array.from({ length: FORM_VISITORS }, () => visitor());
    const signers = Array.from({ length: FORM_VISITORS }, () => visitor());
    const ready = (withBasket: boolean) =>
      Promise.all([
        ...buyers.map(async (buyer) => {
          await buyer.view(FORMS.basket.from);
          if (withBasket)
            await buyer.post(FORMS.basket.action, FORMS.basket.from, FORMS.basket.fields);
        }),
        ...signers.map((signer) => signer.view(FORMS.login.from)),
      ]);
    if (backend.kill) {
      await Promise.all(PAGES.map(([path]) => visitor().view(path)));
      await ready(true);
      await backend.kill();
    } else {
      await ready(false);
    }

    const before = await steadyOpenFiles(pid);
    const viewStatuses: string[] = [];
    for (let round = 0; round < VIEWS / VIEWS_AT_ONCE; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: VIEWS_AT_ONCE }, (_, index) => {
          const [path] = PAGES[(round * VIEWS_AT_ONCE + index) % PAGES.length] ?? ['/'];
          const returning = {
            sessionid: `s${round}x${index}`,
            csrftoken: 'c'.repeat(32),
            cookieAccepted: 'true',
          };
          return visitor(returning)
            .view(path)
            .then((answer) => count(path, answer));
        }),
      );
      viewStatuses.push(...answers.map(statusOf));
    }
    const afterViews = await openFiles(pid);
    await sleep(SETTLE_MS);
    const after = await openFiles(pid);
    say(`open files ${before} → ${afterViews} → ${after}`);

    const pageAnswers = new Map<string, Answer[]>(PAGES.map(([path]) => [path, []]));
    for (let round = 0; round < PAGE_ROUNDS; round += 1) {
      await Promise.all(
        PAGES.map(async ([path]) =>
          pageAnswers.get(path)?.push(count(path, await visitor().view(path))),
        ),
      );
    }
    const pages = PAGES.map(([path, marker]) => {
      const answers = pageAnswers.get(path) ?? [];
      return {
        path,
        ...timesOf(answers),
        statuses: tally(answers.map(statusOf)),
        with_content: answers.filter((a) => a.status === 200 && marker.test(visibleHtml(a.body)))
          .length,
      };
    });
    say('pages timed');

    const formAnswers: Record<FormName, { answer: Answer; said: string; message: boolean }[]> = {
      basket: [],
      checkout: [],
      login: [],
    };
    const post = async (who: Visitor, form: FormName) => {
      const { action, from, fields } = FORMS[form];
      const answer = count(`POST ${action}`, await who.post(action, from, fields));
      formAnswers[form].push({ answer, ...formSaid(answer, who) });
    };
    const [sitemap] = await Promise.all([
      visitor().view('/sitemap.xml'),
      // A buyer changes the basket, then checks out.
      ...buyers.map(async (buyer) => {
        await post(buyer, 'basket');
        await post(buyer, 'checkout');
      }),
      ...signers.map((signer) => post(signer, 'login')),
    ]);
    // A sitemap never walked yet answers 503 with Retry-After: come back later, not a failure.
    if (!(sitemap.status === 503 && sitemap.headers['retry-after'])) count('/sitemap.xml', sitemap);
    const forms = (Object.keys(FORMS) as FormName[]).map((form) => {
      const trials = formAnswers[form];
      return {
        form,
        ...timesOf(trials.map((trial) => trial.answer)),
        answers: tally(trials.map((trial) => trial.said)),
        late_or_silent: trials.filter(
          ({ answer, message }) =>
            waited(answer) > FORM_TARGET_MS || !(message || answer.status === 303),
        ).length,
      };
    });
    say('forms timed');

    const exited = shop.child.exitCode !== null || shop.child.signalCode !== null;
    const slowPages = pages.filter((page) => (page.p99_ms ?? Infinity) > PAGE_TARGET_MS);
    const empty = pages.filter((page) => page.with_content < PAGE_ROUNDS);
    const targets = [
      {
        target: `every page ≤ ${PAGE_TARGET_MS} ms`,
        met: slowPages.length === 0,
        detail: slowPages.map((page) => `${page.path} p99 ${ms(page.p99_ms)}`).join(', '),
      },
      {
        target: `every form ≤ ${FORM_TARGET_MS} ms, with its message (or done)`,
        met: forms.every((form) => form.late_or_silent === 0),
        detail: forms
          .filter((f) => f.late_or_silent > 0)
          .map((f) => `${f.form} ${f.late_or_silent}/${FORM_VISITORS}`)
          .join(', '),
      },
      {
        target: `open files ≤ baseline + ${FILES_MARGIN} 10 s after ${VIEWS} views`,
        met: before !== null && after !== null && after <= before + FILES_MARGIN,
        detail: `${before ?? '?'} → ${after ?? '?'}`,
      },
      ...(backend.kill
        ? [
            {
              target: 'after the backend died: the five pages 200 with their content',
              met: empty.length === 0,
              detail: empty
                .map((page) => `${page.path} ${page.with_content}/${PAGE_ROUNDS}`)
                .join(', '),
            },
          ]
        : []),
      {
        target: 'no answer ≥ 500 from the shop’s own routes',
        met: shopErrors.length === 0,
        detail: Object.entries(tally(shopErrors))
          .map(([what, n]) => `${what} ×${n}`)
          .join(', '),
      },
      { target: 'the server keeps running', met: !exited, detail: exited ? 'exited' : '' },
    ];
    return {
      fault: name,
      open_files: { before, after_views: afterViews, after_10s: after },
      view_statuses: tally(viewStatuses),
      pages,
      forms,
      sitemap: { ms: sitemap.capped ? null : Math.round(sitemap.ms), status: statusOf(sitemap) },
      shop_errors: shopErrors,
      exited,
      targets,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}

function faultsTable(all: FaultFigures[]): string {
  const row = (title: string, cell: (figures: FaultFigures) => string) =>
    `| ${title} | ${all.map(cell).join(' | ')} |`;
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
  const lines = [
    `Every request waits at most ${CAP_MS / 1000} s. Pages: ${PAGE_ROUNDS} views each, the five at once; content = 200 with the page's fixture text. Forms: ${FORM_VISITORS} visitors each, at once. SSR_DATA_TIMEOUT_MS=${SSR_DATA_TIMEOUT_MS}, FORM_TIMEOUT_MS=${FORM_TIMEOUT_MS}.`,
    '',
    row('', (figures) => figures.fault),
    `| --- |${all.map(() => ' --- |').join('')}`,
    ...PAGES.map(([path]) =>
      row(`\`${path}\` p50 / p99, statuses, content`, (figures) => {
        const page = figures.pages.find((one) => one.path === path);
        return page
          ? `${ms(page.p50_ms)} / ${ms(page.p99_ms)}, ${statuses(page.statuses)}, ${page.with_content}/${PAGE_ROUNDS}`
          : '—';
      }),
    ),
    ...(Object.keys(FORMS) as FormName[]).map((name) =>
      row(`${name} form (\`POST ${FORMS[name].action}\`) p50 / p99; answers`, (figures) => {
        const form = figures.forms.find((one) => one.form === name);
        return form
          ? `${ms(form.p50_ms)} / ${ms(form.p99_ms)}; ${Object.entries(form.answers)
              .map(([said, n]) => `${n}× ${said}`)
              .join('; ')}`
          : '—';
      }),
    ),
    row('`/sitemap.xml`', (figures) => `${ms(figures.sitemap.ms)}, ${figures.sitemap.status}`),
    row(
      `open files: before → after ${VIEWS} views → 10 s later`,
      ({ open_files: f }) => `${f.before ?? '?'} → ${f.after_views ?? '?'} → ${f.after_10s ?? '?'}`,
    ),
    row(`the ${VIEWS} views' statuses`, (figures) => statuses(figures.view_statuses)),
    '',
    '**Targets**',
    '',
    row('target', (figures) => figures.fault),
    `| --- |${all.map(() => ' --- |').join('')}`,
  ];
  for (const target of [...new Set(all.flatMap((f) => f.targets.map((t) => t.target)))]) {
    lines.push(
      row(target, (figures) => {
        const check = figures.targets.find((one) => one.target === target);
        return check
          ? `${mark(check.met)}${check.met || !check.detail ? '' : ` (${check.detail})`}`
          : '—';
      }),
    );
  }
  return lines.join('\n');
}

await runBench(async (atExit) => {
  requireBuild();
  const workDir = await tempDir(atExit, 'faults');
  const all: FaultFigures[] = [];
  for (const [name, start] of Object.entries(FAULTS)) {
    console.error(`faults ${name}: starting`);
    all.push(await benchFault(name, start, workDir));
  }
  await writeReport('bench-faults', 'Faults', all, faultsTable(all));
  return all.every((figures) => figures.targets.every((check) => check.met));
});
