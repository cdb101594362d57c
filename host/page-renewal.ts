// The renewal of what shows a change, once the backend has told of it (host/change-hook.ts):
// this instance's kept public answers at once, and the pages nginx keeps that show it within a
// moment, each variant (theme, cookie notice, encoding) that nginx holds.
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
import type { Entry } from './app-entry.ts';
import type { Change } from '../src/server-entry/entry-server.tsx';

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
  app: Pick<Entry, 'changedShown' | 'isReached' | 'joinChanges' | 'outdateAnswers'>;
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

export function pageRenewal(options: PageRenewalOptions): PageRenewal {
  const { app } = options;
  const renewUrl = options.renewUrl ? new URL(options.renewUrl) : undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: AT_ONCE });
  /** The pages this instance rendered, by key; the most recently rendered last. */
  const pages = new Map<string, KeptPage>();
  /** Pages taken out of `pages` to be renewed again after a pause. */
  const retrying = new Map<string, KeptPage>();
  let gathered: Change | null = null;
  let gatherTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryStep = 0;
  let running: Promise<void> | null = null;
  let dirty = false;
  let closed = false;
  const idleWaiters: (() => void)[] = [];

  const busy = () =>
    gathered !== null || running !== null || gatherTimer !== undefined || retrying.size > 0;
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

  /**
   * Renews `list`, AT_ONCE at a time: of each address, one variant first (its render asks the
   * backend, and keeps the answers), then the others (from those answers). What was not renewed
   * is tried again later.
   */
  const renew = async (list: KeptPage[], since: number) => {
    const byAddress = new Map<string, KeptPage[]>();
    for (const page of list) {
      const address = `${page.scheme}://${page.host}${page.url}`;
      byAddress.set(address, [...(byAddress.get(address) ?? []), page]);
    }
    let failed = 0;
    const one = async (page: KeptPage) => {
      const outcome = await renewOne(page, since);
      if (outcome !== 'renewed') {
        retrying.set(keptPageKey(page), page);
        failed += 1;
      }
    };
    const firsts = [...byAddress.values()].flatMap((variants) => variants.slice(0, 1));
    const rest = [...byAddress.values()].flatMap((variants) => variants.slice(1));
    await inTurn(firsts, AT_ONCE, one);
    await inTurn(rest, AT_ONCE, one);
    return failed;
  };

  const scheduleRetry = () => {
    if (retryTimer || closed || retrying.size === 0) return;
    const pause = RETRY_MS[Math.min(retryStep, RETRY_MS.length - 1)] ?? LAST_RETRY_MS;
    retryStep += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (!running) run();
      else scheduleRetry();
    }, pause);
    retryTimer.unref();
  };

  /** One round: the gathered change's pages, and those waiting to be tried again. */
  const run = () => {
    const change = gathered;
    gathered = null;
    const reached = change ? app.changedShown(change) : undefined;
    const list: KeptPage[] = [];
    if (reached !== undefined) {
      for (const [key, page] of pages) {
        if (!app.isReached(page.shows, reached)) continue;
        // Whichever instance renders it keeps it in its list from now on.
        pages.delete(key);
        list.push(page);
        dirty = true;
      }
    }
    const retries = retrying.size;
    for (const [key, page] of retrying) {
      retrying.delete(key);
      list.push(page);
    }
    const since = Date.now();
    running = renew(list, since).then((failed) => {
      running = null;
      // A round of retries that renewed everything ends the pauses; a change's round leaves them.
      if (retries > 0 && failed === 0) retryStep = 0;
      if (gathered && !closed) run();
      else scheduleRetry();
      settle();
    });
  };

  const saveFile = async () => {
    if (!options.file || !dirty) return;
    dirty = false;
    const list = [...pages.values(), ...retrying.values()];
    await writeFileAtomic(options.file, JSON.stringify({ pages: list }));
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
      retrying.delete(keptPageKey(page));
      remember(page);
    },
    change(change) {
      app.outdateAnswers(change);
      if (!renewUrl || closed) return;
      gathered = gathered ? app.joinChanges(gathered, change) : change;
      if (gatherTimer || running) return;
      gatherTimer = setTimeout(() => {
        gatherTimer = undefined;
        if (!running) run();
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
      await running;
      await saveFile();
      agent.destroy();
    },
  };

  // The pages the last process of this instance rendered: renewed now, by this build.
  if (options.file && renewUrl) {
    void readKeptPages(options.file).then((list) => {
      if (closed || list.length === 0) return;
      for (const page of list) retrying.set(keptPageKey(page), page);
      if (!running) run();
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

/** Runs `work` on each of `items`, at most `atOnce` at a time. */
async function inTurn<T>(items: T[], atOnce: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}
