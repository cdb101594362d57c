// The benches' HTTP without a browser: a visitor with a browser's cookies, pages and forms, each
// request on a connection of its own (none stays open behind it: the server's open files count
// its own) and its wait capped; a timed GET; and autocannon's load.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import type autocannon from 'autocannon';
import { parseSetCookie, stringifyCookie } from 'cookie';
import { REPO_ROOT } from './shop.ts';

export interface Answer {
  /** null: no answer within the cap, or no connection. */
  status: number | null;
  ms: number;
  capped: boolean;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The loopback address of visitor `n` (127.0.0.2 and up): nginx's limits per address
 * (deploy/nginx.conf) see many visitors as many addresses, as a crowd of shoppers is.
 */
export const loopbackAddress = (n: number) => `127.0.${Math.floor(n / 250)}.${(n % 250) + 2}`;

export class Visitor {
  readonly cookies: Map<string, string>;

  /**
   * `localAddress`: the loopback address the visitor comes from (127.0.0.1 unless given), so that
   * many visitors are many addresses, as nginx's limits per address (deploy/nginx.conf) see them.
   */
  constructor(
    private readonly shop: URL,
    private readonly capMs: number,
    cookies: Record<string, string> = {},
    private readonly localAddress?: string,
  ) {
    this.cookies = new Map(Object.entries(cookies));
  }

  /** A page as a browser asks for it; `headers` added (e.g. its Accept-Encoding). */
  view(pagePath: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send(pagePath, 'GET', {
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Dest': 'document',
      ...headers,
    });
  }

  /** The form posted from the page at `from`, as a browser posts it: same-origin, urlencoded. */
  post(action: string, from: string, fields: Record<string, string>): Promise<Answer> {
    const headers = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: this.shop.origin,
      Referer: new URL(from, this.shop).href,
      'Sec-Fetch-Site': 'same-origin',
      'Sec-Fetch-Mode': 'navigate',
    };
    return this.send(action, 'POST', headers, new URLSearchParams(fields).toString());
  }

  private async send(
    where: string,
    method: 'GET' | 'POST',
    headers: Record<string, string>,
    form?: string,
  ): Promise<Answer> {
    const cookie = stringifyCookie(Object.fromEntries(this.cookies));
    const started = performance.now();
    const signal = AbortSignal.timeout(this.capMs);
    const req = request(new URL(where, this.shop), {
      method,
      headers: { 'Accept-Language': 'ru-RU,ru;q=0.9', ...headers, ...(cookie ? { cookie } : {}) },
      agent: false,
      localAddress: this.localAddress,
      signal,
    });
    req.end(form);
    try {
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      for (const line of res.headers['set-cookie'] ?? []) {
        const { name, value = '', maxAge, expires } = parseSetCookie(line);
        const expired = (maxAge ?? 1) <= 0 || (expires?.getTime() ?? Infinity) <= Date.now();
        if (expired) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const ms = performance.now() - started;
      const body = Buffer.concat(chunks).toString('utf8');
      return { status: res.statusCode ?? null, ms, capped: false, headers: res.headers, body };
    } catch {
      req.destroy();
      const ms = performance.now() - started;
      return { status: null, ms, capped: signal.aborted, headers: {}, body: '' };
    }
  }
}

/** A GET's time until its body has come; `capMs` when it failed, was not 2xx or took longer. */
export async function timedGet(url: string, capMs: number): Promise<number> {
  const started = performance.now();
  try {
    const answer = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(capMs) });
    await answer.arrayBuffer();
    return answer.ok ? performance.now() - started : capMs;
  } catch {
    return capMs;
  }
}

const AUTOCANNON = path.join(REPO_ROOT, 'node_modules', 'autocannon', 'autocannon.js');

/**
 * GETs of `url` on `connections` connections: 3 s of warm-up (a server's steady state, not its
 * first compile), `measuring()`, then 10 s measured. autocannon in a process of its own (nothing
 * the bench does weighs on it) with two threads: one tops out near 2,300 pages/s of 25 KB here,
 * and its own queueing then shows as the server's latency.
 */
export async function rate(
  url: string,
  connections = 10,
  headers: Record<string, string> = {},
  measuring = () => {},
) {
  const sent = { accept: 'text/html', 'accept-encoding': 'gzip', ...headers };
  const load = (seconds: number) =>
    promisify(execFile)(
      process.execPath,
      [AUTOCANNON, '--json', '-c', String(connections), '-w', '2', '-d', String(seconds)]
        .concat(...Object.entries(sent).map(([name, value]) => ['-H', `${name}=${value}`]))
        .concat(url),
      { maxBuffer: 16 * 1024 * 1024 },
    );
  await load(3);
  measuring();
  const result = JSON.parse((await load(10)).stdout) as autocannon.Result;
  return {
    per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    failed: result.non2xx + result.errors,
  };
}
