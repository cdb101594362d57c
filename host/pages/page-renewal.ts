// The renewal of what shows a change, once the backend has told of it
// (host/backend/change-hook.ts): this instance's kept public answers at once, and the pages nginx
// keeps that show it within a moment, each variant (theme, cookie notice, encoding) that nginx
// holds.
//
// nginx keeps a page for as long as its s-maxage says; to renew one, the instance asks nginx for
// it on a listener of its own (deploy/nginx.conf, PAGE_RENEW_URL) that never answers from the
// cache and keeps what comes back in place of the old copy. A copy that does not come back whole
// (the backend down, a page missing data) is not kept, and the old one stays: a change heard
// during an outage empties nothing. Such a page is tried again, with a growing pause, until it
// is renewed.
//
// Which pages nginx keeps, and what each shows, only the instances know: each page was rendered
// by one of them. Each instance keeps the list of the pages it rendered and renews those; every
// instance hears every hook (the recipe copies it to each). A renewal hands the page to whichever
// instance renders it, which then keeps it in its own list. KEPT_PAGES_FILE carries the list over
// a restart, and an instance renews the pages it takes over (they may be an older build's, or
// have missed a change while no instance held them).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import * as v from 'valibot';
import writeFileAtomic from 'write-file-atomic';
import type { Entry } from '../app-entry.ts';
import type { Change, ShopServer } from '../../src/server-entry/entry-server.tsx';

/**
 * A page nginx keeps, by what its cache key is made of (deploy/nginx.conf's proxy_cache_key), and
 * what it shows.
 */
export interface KeptPage {
  scheme: string;
  host: string;
  /** The path and query as asked ($request_uri). */
  url: string;
  theme: 'light' | 'dark';
  /** Whether the cookie notice was accepted (the variant without it). */
  accepted: boolean;
  /** The encoding nginx asked for ($page_encoding): brotli, gzip or none. */
  encoding: '' | 'gzip' | 'br';
  shows: string[];
}

/** The request header that asks an instance for answers newer than a time (render.ts). */
export const RENEW_HEADER = 'X-Shop-Renew';
/** Marks a page whose data stood in for what the backend did not give (render.ts). */
export const STAND_IN_HEADER = 'X-Shop-Data';

/** A burst of hooks is gathered this long and renewed as one change. */
const GATHER_MS = 50;
/** Renewals under way at once: the instances render them beside shoppers' pages. */
const AT_ONCE = 4;
/** Of those, retries at most: the others are always free for a change. */
const RETRIES_AT_ONCE = 2;
/** The pause before a page that was not renewed is tried again, doubling up to the last. */
const LAST_RETRY_MS = 60_000;
const RETRY_MS = [1000, 2000, 4000, 8000, 15_000, 30_000, LAST_RETRY_MS];
/** How many pages an instance keeps in its list: the least recently rendered go first. */
const MAX_PAGES = 50_000;
const SAVE_EVERY_MS = 30_000;
const RENEW_TIMEOUT_MS = 35_000;

export interface PageRenewalOptions {
  /** nginx's renewing listener (`http://127.0.0.1:8082`); none: only the answers are renewed. */
  renewUrl?: string;
  /** Where the list of kept pages outlives a restart. */
  file?: string;
  app: Pick<Entry, 'changedShown' | 'isReached' | 'joinChanges'> &
    Pick<ShopServer, 'outdateAnswers'>;
}

export interface PageRenewal {
  /** Whether kept pages are renewed (PAGE_RENEW_URL is set). */
  renewsPages: boolean;
  /** A public page this instance rendered and nginx keeps. */
  kept(page: KeptPage): void;
  /** A change the backend told of. */
  change(change: Change): void;
  /** Resolves once no renewal is gathering, under way or waiting to be tried again. */
  idle(): Promise<void>;
  /** Stops renewing and writes the list of kept pages. */
  close(): Promise<void>;
}

/** The page's key, as nginx's proxy_cache_key spells it. */
export function keptPageKey(page: Omit<KeptPage, 'shows'>): string {
  const notice = page.accepted ? 'accepted' : 'notice';
  return `${page.scheme}://${page.host}${page.url}|${page.theme}|${notice}|${page.encoding}`;
}

const KeptPageShape = v.object({
  scheme: v.picklist(['http', 'https']),
  host: v.string(),
  url: v.pipe(v.string(), v.startsWith('/')),
  theme: v.picklist(['light', 'dark']),
  accepted: v.boolean(),
  encoding: v.picklist(['', 'gzip', 'br']),
  shows: v.array(v.string()),
});
const KeptPagesFile = v.object({ pages: v.array(KeptPageShape) });

type Outcome = 'renewed' | 'stand-in' | 'failed';

/** A page to renew, and the time its answers must be newer than (RENEW_HEADER). */
interface Renewal {
  page: KeptPage;
  key: string;
  since: number;
  /**
   * The first of its address's variants in a change: its render asks the backend and keeps the
   * answers, and the address's other variants wait for it, to render from those.
   */
  leads: boolean;
}

const addressOf = (page: KeptPage) => `${page.scheme}://${page.host}${page.url}`;

/** `list` as renewals at `since`: of each address, one variant first (it leads), then the others. */
function renewals(list: KeptPage[], since: number, lead: boolean): Renewal[] {
  const byAddress = new Map<string, KeptPage[]>();
  for (const page of list) {
    const address = addressOf(page);
    byAddress.set(address, [...(byAddress.get(address) ?? []), page]);
  }
  const renewal = (page: KeptPage, leads: boolean) => ({
    page,
    key: keptPageKey(page),
    since,
    leads,
  });
  return [
    ...[...byAddress.values()].flatMap((variants) =>
      variants.slice(0, 1).map((page) => renewal(page, lead)),
    ),
    ...[...byAddress.values()].flatMap((variants) =>
      variants.slice(1).map((page) => renewal(page, false)),
    ),
  ];
}

/**
 * Renewals run AT_ONCE at a time, in two lines. A change's pages come first, the oldest change's
 * first: a change must reach shoppers within seconds. Then, in whatever the changes leave and at
 * most RETRIES_AT_ONCE of it, a round of retries of the pages that were not renewed (the backend
 * down or slow, a render timed out), and the pages taken over from the last process: these can
 * hang for as long as nginx waits for a render, and a change never waits behind them. Rounds of
 * retries are spaced by a pause that grows while they fail. A page is renewed once at a time; a
 * change that reaches it meanwhile renews it again after, with that change's time.
 */
export function pageRenewal(options: PageRenewalOptions): PageRenewal {
  const { app } = options;
  const renewUrl = options.renewUrl ? new URL(options.renewUrl) : undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: AT_ONCE });
  /** The pages this instance rendered, by key; the most recently rendered last. */
  const pages = new Map<string, KeptPage>();
  /** The pages changes reached, waiting to be renewed, the oldest change's first. */
  const changed = new Map<string, Renewal>();
  /** The round of retries under way (and the pages taken over), waiting for a slot. */
  const retrying = new Map<string, Renewal>();
  /** The pages that were not renewed, waiting for the next round of retries. */
  const failed = new Map<string, Renewal>();
  /** The pages being renewed, each with what a change asked for meanwhile. */
  const underWay = new Map<string, { renewal: Renewal; retry: boolean; next?: Renewal }>();
  const finishing = new Set<Promise<void>>();
  /** Addresses whose leading variant is being renewed, by how many. */
  const leading = new Map<string, number>();
  let retriesUnderWay = 0;
  let inRound = false;
  let roundFailed = 0;
  let gathered: Change | null = null;
  let gatherTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryStep = 0;
  let dirty = false;
  let closed = false;
  const idleWaiters: (() => void)[] = [];

  const busy = () =>
    gathered !== null ||
    gatherTimer !== undefined ||
    changed.size + retrying.size + failed.size + underWay.size > 0;
  const settle = () => {
    if (busy()) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const remember = (page: KeptPage) => {
    const key = keptPageKey(page);
    pages.delete(key);
    pages.set(key, page);
    if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
    dirty = true;
  };

  /** Asks nginx's renewing listener for the page, as nginx's key names its variant. */
  const renewOne = (page: KeptPage, since: number): Promise<Outcome> =>
    new Promise((resolve) => {
      if (!renewUrl) return resolve('failed');
      const headers: Record<string, string> = {
        Host: page.host,
        'X-Forwarded-Proto': page.scheme,
        // The variant's cookies exactly as nginx reads them for its key (and passes them on).
        Cookie: `theme=${page.theme}; cookieAccepted=${page.accepted}`,
        [RENEW_HEADER]: String(since),
      };
      if (page.encoding) headers['Accept-Encoding'] = page.encoding;
      const request = http.get(
        {
          protocol: renewUrl.protocol,
          hostname: renewUrl.hostname,
          port: renewUrl.port,
          path: page.url,
          headers,
          agent,
          timeout: RENEW_TIMEOUT_MS,
        },
        (answer) => {
          answer.resume();
          answer.once('end', () => {
            const kept =
              answer.statusCode !== undefined &&
              answer.statusCode < 400 &&
              /\bs-maxage=/.test(answer.headers['cache-control'] ?? '');
            if (!kept) resolve('failed');
            else resolve(answer.headers[STAND_IN_HEADER.toLowerCase()] ? 'stand-in' : 'renewed');
          });
          answer.once('error', () => resolve('failed'));
        },
      );
      request.once('timeout', () => request.destroy());
      request.once('error', () => resolve('failed'));
    });

  /** Renews a page for a change, now or once the renewal of it under way ends. */
  const renewForChange = (renewal: Renewal) => {
    const current = underWay.get(renewal.key);
    if (current) {
      current.next = renewal;
      return;
    }
    retrying.delete(renewal.key);
    failed.delete(renewal.key);
    const queued = changed.get(renewal.key);
    if (queued) queued.since = renewal.since;
    else changed.set(renewal.key, renewal);
  };

  /** The first renewal of `line` that may start: a variant waits while its address's leads. */
  const takeFrom = (line: Map<string, Renewal>) => {
    for (const [key, renewal] of line) {
      if (!renewal.leads && leading.has(addressOf(renewal.page))) continue;
      line.delete(key);
      return renewal;
    }
    return undefined;
  };

  const start = (renewal: Renewal, retry: boolean) => {
    const address = addressOf(renewal.page);
    if (renewal.leads) leading.set(address, (leading.get(address) ?? 0) + 1);
    if (retry) retriesUnderWay += 1;
    const current: { renewal: Renewal; retry: boolean; next?: Renewal } = { renewal, retry };
    underWay.set(renewal.key, current);
    const finished = renewOne(renewal.page, renewal.since).then((outcome) => {
      finishing.delete(finished);
      underWay.delete(renewal.key);
      if (renewal.leads) {
        const left = (leading.get(address) ?? 1) - 1;
        if (left > 0) leading.set(address, left);
        else leading.delete(address);
      }
      if (retry) retriesUnderWay -= 1;
      if (current.next) renewForChange(current.next);
      else if (outcome !== 'renewed') {
        failed.set(renewal.key, { ...renewal, leads: false });
        if (retry) roundFailed += 1;
      }
      pump();
    });
    finishing.add(finished);
  };

  const scheduleRetry = () => {
    if (retryTimer || closed || inRound || failed.size === 0) return;
    const pause = RETRY_MS[Math.min(retryStep, RETRY_MS.length - 1)] ?? LAST_RETRY_MS;
    retryStep += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      inRound = true;
      for (const [key, renewal] of failed) {
        failed.delete(key);
        retrying.set(key, renewal);
      }
      pump();
    }, pause);
    retryTimer.unref();
  };

  /** Starts what the slots allow, a change's pages first; then ends a finished round of retries. */
  const pump = () => {
    while (!closed && underWay.size < AT_ONCE) {
      let renewal = takeFrom(changed);
      const retry = !renewal;
      if (!renewal && retriesUnderWay < RETRIES_AT_ONCE) renewal = takeFrom(retrying);
      if (!renewal) break;
      start(renewal, retry);
    }
    if (inRound && retrying.size === 0 && retriesUnderWay === 0) {
      inRound = false;
      // A round of retries that renewed everything ends the pauses; a change's failures leave them.
      if (roundFailed === 0) retryStep = 0;
      roundFailed = 0;
    }
    scheduleRetry();
    settle();
  };

  /** The gathered change: every page it reaches, wherever it waits, renewed at its time. */
  const renewChange = () => {
    const change = gathered;
    gathered = null;
    if (!change) return;
    const reached = app.changedShown(change);
    const list: KeptPage[] = [];
    for (const [key, page] of pages) {
      if (!app.isReached(page.shows, reached)) continue;
      // Whichever instance renders it keeps it in its list from now on.
      pages.delete(key);
      list.push(page);
      dirty = true;
    }
    const waiting = [changed, retrying, failed].flatMap((line) => [...line.values()]);
    for (const { renewal } of [...underWay.values(), ...waiting.map((renewal) => ({ renewal }))]) {
      if (app.isReached(renewal.page.shows, reached)) list.push(renewal.page);
    }
    const unique = new Map(list.map((page) => [keptPageKey(page), page]));
    for (const renewal of renewals([...unique.values()], Date.now(), true)) renewForChange(renewal);
    pump();
  };

  const saveFile = async () => {
    if (!options.file || !dirty) return;
    dirty = false;
    const list = new Map(pages);
    for (const line of [changed, retrying, failed]) {
      for (const [key, renewal] of line) list.set(key, renewal.page);
    }
    for (const [key, { renewal }] of underWay) list.set(key, renewal.page);
    await writeFileAtomic(options.file, JSON.stringify({ pages: [...list.values()] }));
  };
  const saveTimer = options.file
    ? setInterval(() => {
        saveFile().catch((error: unknown) => console.error('kept pages:', error));
      }, SAVE_EVERY_MS)
    : undefined;
  saveTimer?.unref();

  const renewal: PageRenewal = {
    renewsPages: renewUrl !== undefined,
    kept(page) {
      if (!renewUrl || closed) return;
      // Rendered just now, after the changes it showed: no need to try it again. A change's
      // renewal waiting for it still runs (this render may have begun before that change).
      const key = keptPageKey(page);
      const wasWaiting = [retrying.delete(key), failed.delete(key)].includes(true);
      remember(page);
      if (wasWaiting) pump();
    },
    change(change) {
      app.outdateAnswers(change);
      if (!renewUrl || closed) return;
      gathered = gathered ? app.joinChanges(gathered, change) : change;
      if (gatherTimer) return;
      gatherTimer = setTimeout(() => {
        gatherTimer = undefined;
        renewChange();
      }, GATHER_MS);
    },
    idle: () => (busy() ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
    async close() {
      closed = true;
      clearTimeout(gatherTimer);
      clearTimeout(retryTimer);
      gatherTimer = undefined;
      retryTimer = undefined;
      clearInterval(saveTimer);
      await Promise.all(finishing);
      await saveFile();
      agent.destroy();
    },
  };

  // The pages the last process of this instance rendered: renewed now, by this build, as a round
  // of retries (a change heard meanwhile goes first).
  if (options.file && renewUrl) {
    void readKeptPages(options.file).then((list) => {
      if (closed || list.length === 0) return;
      for (const taken of renewals(list, Date.now(), false)) {
        if (!underWay.has(taken.key) && !changed.has(taken.key)) retrying.set(taken.key, taken);
      }
      inRound = true;
      pump();
    });
  }
  return renewal;
}

/** The kept pages written by the last process; none when there is no file, or it is unreadable. */
async function readKeptPages(file: string): Promise<KeptPage[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      console.error(`kept pages: ${file} не прочитан (${(error as Error).message})`);
    }
    return [];
  }
  try {
    const result = v.safeParse(KeptPagesFile, JSON.parse(text));
    if (result.success) return result.output.pages;
  } catch {
    // told below
  }
  // Only a list of pages to renew: without it they are renewed when their lifetime runs out.
  console.error(`kept pages: ${file} не разобран, список начат заново`);
  return [];
}
