// Shared pieces of the stub tests: a server on a temporary data file, a tiny cookie jar, a client
// that behaves like the app (cookies, X-CSRFToken, Token auth) and shape checks for the entities.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../stub-server/server.ts';

export interface TestServer extends RunningServer {
  dataFile: string;
  /** Removes the temporary directory too. */
  dispose(): Promise<void>;
}

export function tempDataFile(): { dir: string; dataFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'berries-stub-test-'));
  return { dir, dataFile: join(dir, 'db.json') };
}

export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const { dir, dataFile } = tempDataFile();
  const server = await startServer({ port: 0, dataFile, controls: true, ...options });
  return {
    ...server,
    dataFile: options.dataFile ?? dataFile,
    dispose: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One stub for a test file, on a data file of its own: started before the file's first test and
 * stopped after its last. With `reset`, its data is re-seeded before each test, so that no test
 * sees what another wrote. Its `url` can be read once the file's tests run.
 */
export function stubPerFile(options: { reset?: boolean } = {}): { readonly url: string } {
  let server: TestServer | undefined;
  const stub = {
    get url(): string {
      if (!server)
        throw new Error('the stub starts in beforeAll: read its url in a test or a hook');
      return server.url;
    },
  };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.dispose());
  if (options.reset) {
    beforeEach(async () => {
      expect((await control(stub.url, 'POST', '/reset')).status).toBe(200);
    });
  }
  return stub;
}

/** Keeps cookies by name, as a browser would for one site. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body string (sent as application/json unless headers say otherwise). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** false: no X-CSRFToken header; a string: that value. Default: the jar's csrftoken. */
  csrf?: boolean | string;
}

/** One visitor: a cookie jar and, after login, a token. */
export class Visitor {
  readonly jar = new CookieJar();
  token: string | null = null;

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const cookie = this.jar.header();
    if (cookie) headers.Cookie = cookie;
    if (this.token) headers.Authorization = `Token ${this.token}`;
    const csrf =
      options.csrf === undefined || options.csrf === true
        ? this.jar.get('csrftoken')
        : options.csrf;
    if (typeof csrf === 'string' && method !== 'GET') headers['X-CSRFToken'] = csrf;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, options.headers);
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body });
    this.jar.store(response);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text)
      parsed = JSON.parse(text);
    return { status: response.status, body: parsed, headers: response.headers };
  }

  get(path: string, options?: RequestOptions): Promise<ApiAnswer> {
    return this.request('GET', path, options);
  }

  put(path: string, body: unknown, options?: RequestOptions): Promise<ApiAnswer> {
    return this.request('PUT', path, { ...options, body });
  }

  post(path: string, body: unknown, options?: RequestOptions): Promise<ApiAnswer> {
    return this.request('POST', path, { ...options, body });
  }

  delete(path: string, options?: RequestOptions): Promise<ApiAnswer> {
    return this.request('DELETE', path, options);
  }

  /** A first GET, as the app's start-up basket load does: it receives the cookies. */
  async start(): Promise<this> {
    const answer = await this.get('/api/catalog/basket');
    expect(answer.status).toBe(200);
    expect(this.jar.get('csrftoken')).toMatch(/^[a-z0-9]{32}$/);
    return this;
  }

  async login(username = 'demo', password = 'berries2026'): Promise<string> {
    const answer = await this.post('/api/auth/token/', { username, password });
    expect(answer.status).toBe(200);
    const { token } = answer.body as { token: string };
    this.token = token;
    return token;
  }
}

/** POST/DELETE/GET to /__control (no cookies, no CSRF needed). */
export async function control(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const response = await fetch(new URL(`/__control${path}`, baseUrl), {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body:
      text && (response.headers.get('content-type') ?? '').includes('json')
        ? JSON.parse(text)
        : text,
    headers: response.headers,
  };
}

// ---- shape checks: exact key sets and value types, as src/api/types.ts declares them ----

const sorted = (keys: string[]) => [...keys].sort();

export function expectKeys(value: unknown, keys: string[]): Record<string, unknown> {
  expect(value).toBeTypeOf('object');
  expect(value).not.toBeNull();
  const record = value as Record<string, unknown>;
  expect(sorted(Object.keys(record))).toEqual(sorted(keys));
  return record;
}

const isImage = (value: unknown) =>
  value === null || (typeof value === 'string' && /^(\/media\/|https?:\/\/)/.test(value));

export function expectProduct(value: unknown): void {
  const p = expectKeys(value, [
    'id',
    'name',
    'image',
    'unit',
    'unit_step',
    'price',
    'rest',
    'available',
  ]);
  expect(Number.isInteger(p.id)).toBe(true);
  expect(p.name).toBeTypeOf('string');
  expect((p.name as string).length).toBeGreaterThan(0);
  expect(isImage(p.image)).toBe(true);
  expect(p.unit).toBeTypeOf('string');
  expect(p.unit_step === null || typeof p.unit_step === 'number').toBe(true);
  expect(p.price === null || typeof p.price === 'number').toBe(true);
  expect(p.rest).toBeTypeOf('number');
  expect(p.available).toBeTypeOf('boolean');
}

export function expectSectionRef(value: unknown): void {
  const s = expectKeys(value, ['id', 'name', 'image']);
  expect(Number.isInteger(s.id)).toBe(true);
  expect(s.name).toBeTypeOf('string');
  expect(isImage(s.image)).toBe(true);
}

export function expectCrumbs(value: unknown): { id: number; name: string }[] {
  expect(Array.isArray(value)).toBe(true);
  for (const crumb of value as unknown[]) {
    const c = expectKeys(crumb, ['id', 'name']);
    expect(Number.isInteger(c.id)).toBe(true);
    expect(c.name).toBeTypeOf('string');
  }
  return value as { id: number; name: string }[];
}

export function expectOrder(value: unknown): void {
  const o = expectKeys(value, ['id', 'created_ts', 'status', 'order_sum', 'items']);
  expect(Number.isInteger(o.id)).toBe(true);
  expect(o.created_ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/);
  expect([0, 1, 2, 3, 4, 5]).toContain(o.status);
  expect(o.order_sum).toBeTypeOf('number');
  expect(Array.isArray(o.items)).toBe(true);
  expect((o.items as unknown[]).length).toBeGreaterThan(0);
  let sum = 0;
  for (const item of o.items as unknown[]) {
    const i = expectKeys(item, ['id', 'amount', 'price', 'product']);
    expect(Number.isInteger(i.id)).toBe(true);
    expect(i.amount).toBeTypeOf('number');
    expect(i.price).toBeTypeOf('number');
    const product = expectKeys(i.product, ['id', 'name', 'unit']);
    expect(Number.isInteger(product.id)).toBe(true);
    sum += Math.round((i.amount as number) * (i.price as number) * 100) / 100;
  }
  expect(o.order_sum).toBeCloseTo(sum, 2);
}
