// Fair use of the backend (issue 39), for tests/e2e/fairness.test.ts and `npm run bench:edge`:
// one address flooding the shop with uncached searches, and another shopper changing their basket
// and checking out meanwhile, each step as the app or a browser without JavaScript makes it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './nginx-recipe.ts';
import { type CookieJar, cookieHeader, keepCookies } from './visitor-cookies.ts';

const FLOOD = fileURLToPath(new URL('./flood.ts', import.meta.url));

export interface Flood {
  /** Answers by status so far (0: the request failed), as the flooding process last said. */
  statuses: Map<number, number>;
  /** Ends the flood, and every request under way. */
  stop(): Promise<void>;
}

/**
 * `atOnce` requests at a time to `front`, each a search nobody asked before (tests/e2e/flood.ts),
 * from a process of its own, as a flooder is another machine: its loops never slow the backend
 * that a test runs in its own process. From `localAddress` (another loopback address than the
 * shoppers', as another visitor's is), with `headers` added.
 */
export async function searchFlood(
  front: string,
  atOnce: number,
  {
    localAddress = '',
    headers = {},
  }: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<Flood> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', FLOOD, front, String(atOnce), localAddress, JSON.stringify(headers)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const statuses = new Map<number, number>();
  let said = '';
  child.stdout.on('data', (chunk: Buffer) => {
    said += chunk.toString();
    const lines = said.split('\n');
    said = lines.pop() ?? '';
    const last = lines.at(-1);
    if (!last) return;
    for (const [status, count] of JSON.parse(last) as [number, number][])
      statuses.set(status, count);
  });
  // Once its output is all read too.
  const exited = once(child, 'close');
  // Flooding: its first line says so.
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    void exited.then(() => reject(new Error('the flood ended before it began')));
  });
  return {
    statuses,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One step of a shopper's visit: what it is, and whether it did what the shopper asked. */
export interface Step {
  step: string;
  ok: boolean;
  /** What came back, when it was not what the step needs. */
  got?: string;
}

const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  'sec-fetch-site': 'same-origin',
};

/**
 * A shopper at `front` (with `headers` added to each request): a session, two basket changes as
 * the app makes them (/api), one as a form posted without JavaScript, and a checkout as that
 * form; then one more change and a checkout as the app. Each step's outcome, in order.
 */
export async function shopperVisit(
  front: string,
  headers: Record<string, string> = {},
): Promise<Step[]> {
  const jar: CookieJar = new Map();
  const steps: Step[] = [];
  const send = async (
    step: string,
    path: string,
    init: RequestInit,
    ok: (r: Response) => boolean,
  ) => {
    const answer = await fetch(`${front}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        ...headers,
        ...(init.headers as Record<string, string>),
        cookie: cookieHeader(jar),
      },
    }).catch((error: Error) => error);
    if (answer instanceof Error) {
      // fetch's own message is "fetch failed": what failed is its cause.
      const cause = answer.cause instanceof Error ? `: ${answer.cause.message}` : '';
      steps.push({ step, ok: false, got: `${answer.message}${cause}` });
      return null;
    }
    const body = await answer.text();
    keepCookies(jar, answer);
    const passed = ok(answer);
    steps.push(
      passed
        ? { step, ok: true }
        : { step, ok: false, got: `${answer.status} ${body.slice(0, 120)}` },
    );
    return passed ? body : null;
  };
  const api = (method: string, body?: unknown, more: Record<string, string> = {}) => ({
    method,
    headers: {
      'content-type': 'application/json',
      'x-csrftoken': jar.get('csrftoken') ?? '',
      ...more,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  /** A form's 303, with no message of a failure left for the page it goes back to. */
  const formDone = (to: string) => (answer: Response) =>
    answer.status === 303 &&
    answer.headers.get('location') === to &&
    !answer.headers.getSetCookie().some((line) => /^notice=[^;]/.test(line));
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams(fields).toString(),
  });

  await send('the app’s first call (a session)', '/api/catalog/basket', {}, (a) => a.ok);
  await send(
    'basket change (app)',
    '/api/catalog/basket/4',
    api('PUT', { amount: 1 }),
    (a) => a.ok,
  );
  await send(
    'basket change (app)',
    '/api/catalog/basket/7',
    api('PUT', { amount: 0.5 }),
    (a) => a.ok,
  );
  await send(
    'basket change (form)',
    '/basket',
    form({ product: '17', change: 'add', back: '/' }),
    formDone('/'),
  );
  const commitPage = await send('checkout page', '/commit', {}, (a) => a.status === 200);
  const key = /name="idempotency_key" value="([^"]+)"/.exec(commitPage ?? '')?.[1] ?? '';
  const order = { phone: '9123456789', delivery: '2', policy_accept: 'on', idempotency_key: key };
  await send('checkout (form)', '/commit', form(order), formDone('/order_status'));
  await send(
    'basket change (app)',
    '/api/catalog/basket/4',
    api('PUT', { amount: 2 }),
    (a) => a.ok,
  );
  const commit = {
    delivery: '2',
    policy_accept: true,
    send_accept: false,
    comment: '',
    phone: '+7(912)-345-67-89',
  };
  await send(
    'checkout (app)',
    '/api/catalog/order_commit',
    api('POST', commit, { 'idempotency-key': crypto.randomUUID() }),
    (a) => a.ok,
  );
  return steps;
}
