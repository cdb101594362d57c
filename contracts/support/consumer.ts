// The consumer-test harness: `contract(spec)` declares one interaction and a Vitest test that
// makes the app's own src/api function call the Pact mock server. The test passes only when the
// request matched the interaction, the function returned what the app expects, and the function
// named in `calls` (and no other) was called. Pact writes into a scratch directory; once every
// declared test has passed, `writePactFile()` puts the sorted result into contracts/pacts/.
import './env';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HTTPResponseStatusClass,
  MatchersV3 as M,
  PactV4,
  type Rules,
  type TemplateHeaders,
} from '@pact-foundation/pact';
import { expect, it } from 'vitest';
import * as auth from '../../src/api/auth';
import * as basket from '../../src/api/basket';
import * as catalog from '../../src/api/catalog';
import * as content from '../../src/api/content';
import { type Api as ServerApi, configureApi } from '../../src/api/http';
import * as orders from '../../src/api/orders';
import { setToken } from '../../src/api/token';
import { backendCalls, TOKEN_COOKIE, type Visitor } from '../../src/server-entry/backend-calls';
import { type FileRule, nullableRules } from './bodies';
import {
  CONSUMER,
  PACT_CSRF_TOKEN,
  PACT_DIR,
  PACT_FILE,
  PACT_SESSION,
  PROVIDER,
} from './constants';
import { normalizePact, type PactFile } from './pact-file';
import type { Given } from './states';

/** The modules whose every function must have an interaction. */
export const API_MODULES = { catalog, basket, orders, content, auth };
/**
 * The other files of src/api: the HTTP client and what it is made of, calling no endpoint of
 * their own. A new file in src/api is either added to API_MODULES or here, or the check fails.
 */
export const API_MACHINERY = [
  'answer-shapes.ts',
  'call-failure.ts',
  'http.ts',
  'json-type.ts',
  'token.ts',
  'types.ts',
] as const;
export type ModuleName = keyof typeof API_MODULES;
type Modules = typeof API_MODULES;
export type Api = Modules['catalog'] &
  Modules['basket'] &
  Modules['orders'] &
  Modules['content'] &
  Modules['auth'];
export type ApiFunction = keyof Api;

/** `src/api/catalog.ts getProduct`: how the pact names the function that makes a request. */
export const functionRef = (module: string, name: string): string => `src/api/${module}.ts ${name}`;

/** Every exported function of the API modules, as `functionRef` names it. */
export function apiFunctionRefs(): string[] {
  return Object.entries(API_MODULES).flatMap(([module, exports]) =>
    Object.entries(exports)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => functionRef(module, name)),
  );
}

function moduleOf(name: ApiFunction): ModuleName {
  const entry = Object.entries(API_MODULES).find(([, exports]) => name in exports);
  if (!entry) throw new Error(`${name} is not a function of src/api`);
  return entry[0] as ModuleName;
}

/** The API functions, each recording its name when called. */
function recordingApi(calls: string[]): Api {
  const api: Record<string, unknown> = {};
  for (const exports of Object.values(API_MODULES)) {
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value !== 'function') continue;
      api[name] = (...args: unknown[]) => {
        calls.push(name);
        return (value as (...args: unknown[]) => unknown)(...args);
      };
    }
  }
  return api as unknown as Api;
}

export const AUTHORIZATION_PATTERN = /^Token \S+$/;
/** Django's CSRF token: the 32-character secret or its 64-character masked form. */
export const CSRF_PATTERN = /^[A-Za-z0-9]{32,64}$/;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The visitor as the shop's server reports them: one address, the scheme, the shop's name. */
export const SERVER_VISITOR = {
  forwardedFor: '203.0.113.7',
  proto: 'https',
  host: 'shop.example',
} as const;
const ADDRESS_PATTERN = /^[0-9A-Fa-f.:]+$/;
const PROTO_PATTERN = /^https?$/;
const HOST_PATTERN = /^[A-Za-z0-9.-]+(:[0-9]+)?$/;
/** The shop's own address: Django's HTTPS Referer check compares its host with get_host(). */
const REFERER_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(:[0-9]+)?\/$/;
/** Any cookies of the visitor's, among them the session (no lookahead: Pact's regex is Rust's). */
const SESSION_COOKIE_PATTERN = /^(.+; )?sessionid=[A-Za-z0-9]+(; .+)?$/;
/** The same, with Django's CSRF cookie too, in either order. */
const SESSION_AND_CSRF_COOKIE_PATTERN =
  /^(.+; )?(csrftoken=[A-Za-z0-9]{32,64}; (.+; )?sessionid=[A-Za-z0-9]+|sessionid=[A-Za-z0-9]+; (.+; )?csrftoken=[A-Za-z0-9]{32,64})(; .+)?$/;

/** The cookies of a `server` spec's visitor, in the order a browser sent them to the shop. */
function serverCookies(spec: ContractSpec): Record<string, string> {
  if (spec.server?.newcomer) return {};
  const cookies: Record<string, string> = { csrftoken: PACT_CSRF_TOKEN, sessionid: PACT_SESSION };
  if (spec.visitor?.token) cookies[TOKEN_COOKIE] = spec.visitor.token;
  return cookies;
}

/** The headers the shop's server adds for its visitor (src/server-entry/backend-calls.ts). */
function serverHeaders(spec: ContractSpec): TemplateHeaders {
  const headers: TemplateHeaders = {
    'X-Forwarded-For': M.regex(ADDRESS_PATTERN, SERVER_VISITOR.forwardedFor),
    'X-Forwarded-Proto': M.regex(PROTO_PATTERN, SERVER_VISITOR.proto),
    'X-Forwarded-Host': M.regex(HOST_PATTERN, SERVER_VISITOR.host),
    Referer: M.regex(REFERER_PATTERN, `${SERVER_VISITOR.proto}://${SERVER_VISITOR.host}/`),
  };
  const cookies = serverCookies(spec);
  if (Object.keys(cookies).length > 0) {
    const example = Object.entries(cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    const pattern = UNSAFE.has(spec.request.method)
      ? SESSION_AND_CSRF_COOKIE_PATTERN
      : SESSION_COOKIE_PATTERN;
    headers.Cookie = M.regex(pattern, example);
  }
  return headers;
}

export interface ContractSpec {
  /** Unique; the pact file is sorted by it, so it starts with the method and path. */
  description: string;
  given: Given[];
  /** The one src/api function the test calls. */
  calls: ApiFunction;
  request: {
    method: 'GET' | 'PUT' | 'POST' | 'DELETE';
    path: string;
    query?: Record<string, string>;
    /** What the app sends; matchers allowed. */
    body?: unknown;
    /** Headers of this call's own, beside those every call carries; matchers allowed. */
    headers?: TemplateHeaders;
  };
  /**
   * A 2xx status stands for any 2xx (the app reads only that the call succeeded: DRF teams
   * answer 200 or 201 to a PUT that creates, 200 or 204 to a DELETE); an error status is exact.
   * `rules`: matching rules the body's matchers cannot express (the basket's keys).
   */
  response: {
    status: number;
    /** Other error statuses the app treats as this one (`status` is the example). */
    orStatus?: number[];
    body?: unknown;
    rules?: Rules;
  };
  /** The visitor's token (default none) and anti-forgery token (default PACT_CSRF_TOKEN). */
  visitor?: { token?: string; csrfToken?: string | null };
  /**
   * Sent by the shop's server for a visitor (src/server-entry/backend-calls.ts), not by the browser:
   * with the visitor's cookies (none for a newcomer), the token's cookie mirror as
   * `Authorization`, the X-Forwarded-* headers and a Referer. The test passes
   * `serverApi` to the src/api function, as the server's loaders and forms do.
   */
  server?: { newcomer?: boolean };
  run: (context: RunContext) => Promise<void>;
}

export interface RunContext {
  api: Api;
  /** The client of the shop's server for this spec's visitor (`server` specs only). */
  serverApi: ServerApi;
  /** How many times the app's 401 handler ran during this test. */
  unauthorizedCalls: () => number;
}

interface MatchState {
  mockServerMatchedSuccessfully(port: number): boolean;
}

/**
 * Waits until the mock server has recorded the request it answered. Its Rust core sends the
 * answer before it books the match, so a check right after the call can report "expected but not
 * received" for a request that was answered (pact-foundation/pact-reference#535, 1 run in 5
 * here). A real mismatch never turns true and is reported as before, after the wait.
 */
async function matchesRecorded(pact: PactV4, port: number): Promise<void> {
  const core = (pact as unknown as { pact?: Partial<MatchState> }).pact;
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    if (typeof core?.mockServerMatchedSuccessfully !== 'function') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return;
    }
    if (core.mockServerMatchedSuccessfully(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const scratchDir = mkdtempSync(join(tmpdir(), 'berries-pact-'));
const declared = new Set<string>();
const passed = new Set<string>();
let failures = 0;

const csrfTokenOf = (spec: ContractSpec): string | null =>
  spec.visitor?.csrfToken === undefined ? PACT_CSRF_TOKEN : spec.visitor.csrfToken;

/** The headers the app's HTTP client sends, as the pact states them. */
function requestHeaders(spec: ContractSpec): TemplateHeaders {
  const headers: TemplateHeaders = { Accept: 'application/json' };
  const token = spec.visitor?.token;
  if (token) headers.Authorization = M.regex(AUTHORIZATION_PATTERN, `Token ${token}`);
  const csrf = csrfTokenOf(spec);
  if (UNSAFE.has(spec.request.method) && csrf !== null) {
    headers['X-CSRFToken'] = M.regex(CSRF_PATTERN, csrf);
  }
  if (spec.request.body !== undefined) headers['Content-Type'] = 'application/json';
  const server = spec.server ? serverHeaders(spec) : {};
  return { ...headers, ...server, ...spec.request.headers };
}

/**
 * The status as the pact states it: any 2xx for a success, the very code for an error, or one of
 * the codes the app reads the same way.
 */
export function responseStatus(status: number, orStatus: number[] = []) {
  if (status >= 200 && status < 300) return M.matchStatus(status, HTTPResponseStatusClass.Success);
  return orStatus.length > 0 ? M.matchStatus(status, [status, ...orStatus]) : status;
}

interface FfiResponse {
  withResponseMatchingRules(rules: string): void;
}

/**
 * Writes "one of these" rules (`combine: OR`) into the interaction. Pact JS's own
 * `matchingRules()` writes every list as "all of these", so this goes to the Pact core's call
 * that takes the pact file's format as it is.
 */
function addEitherRules(builder: object, rules: Record<string, FileRule[]>): void {
  if (Object.keys(rules).length === 0) return;
  const core = (builder as unknown as { interaction?: Partial<FfiResponse> }).interaction;
  if (typeof core?.withResponseMatchingRules !== 'function') {
    throw new Error(
      'Pact JS changed: cannot write the nullable fields of the pact (see bodies.ts)',
    );
  }
  const body = Object.fromEntries(
    Object.entries(rules).map(([path, matchers]) => [path, { combine: 'OR', matchers }]),
  );
  core.withResponseMatchingRules(JSON.stringify({ body }));
}

export function contract(spec: ContractSpec): void {
  if (declared.has(spec.description)) throw new Error(`Duplicate description: ${spec.description}`);
  declared.add(spec.description);
  const module = moduleOf(spec.calls);

  it(spec.description, async () => {
    try {
      const pact = new PactV4({
        consumer: CONSUMER,
        provider: PROVIDER,
        dir: scratchDir,
        logLevel: 'error',
      });
      let interaction = pact.addInteraction();
      for (const state of spec.given) interaction = interaction.given(state.name, state.params);
      const { method, path, query, body } = spec.request;
      const { status, orStatus, body: responseBody, rules } = spec.response;
      await interaction
        .uponReceiving(spec.description)
        .comment(`Sent by ${spec.calls}() in src/api/${module}.ts`)
        .comment({ key: 'apiFunction', value: functionRef(module, spec.calls) })
        .withRequest(method, path, (builder) => {
          builder.headers(requestHeaders(spec));
          if (query) builder.query(query);
          if (body !== undefined) builder.jsonBody(body);
        })
        .willRespondWith(responseStatus(status, orStatus), (builder) => {
          if (responseBody !== undefined) {
            const nullable = nullableRules(responseBody);
            builder.jsonBody(nullable.body);
            addEitherRules(builder, nullable.rules);
          }
          if (rules) builder.matchingRules(rules);
        })
        .executeTest(async (mockServer) => {
          let unauthorized = 0;
          const calls: string[] = [];
          configureApi({
            baseURL: `${mockServer.url}/api`,
            csrfToken: () => csrfTokenOf(spec),
            onUnauthorized: () => {
              unauthorized += 1;
            },
          });
          // The browser's client holds the token; the server's reads it from the cookie mirror.
          setToken(spec.server ? null : (spec.visitor?.token ?? null));
          const visitor: Visitor = { cookies: serverCookies(spec), ...SERVER_VISITOR };
          const server = backendCalls(
            { baseURL: `${mockServer.url}/api`, fetch: globalThis.fetch },
            visitor,
            30_000,
          );
          try {
            await spec.run({
              api: recordingApi(calls),
              serverApi: server.api,
              unauthorizedCalls: () => unauthorized,
            });
          } finally {
            server.end();
            setToken(null);
          }
          expect(calls, 'the src/api functions the test called').toEqual([spec.calls]);
          await matchesRecorded(pact, mockServer.port);
        });
      passed.add(spec.description);
    } catch (error) {
      failures += 1;
      throw error;
    }
  });
}

export interface WriteResult {
  written: boolean;
  reason?: string;
  file?: string;
}

/**
 * Replaces contracts/pacts/*.json with the interactions of this run, sorted, when every declared
 * consumer test passed. A partial run (a failure, `-t`, `.only`) leaves the committed file alone.
 */
export function writePactFile(): WriteResult {
  try {
    if (failures > 0) return { written: false, reason: `${failures} consumer test(s) failed` };
    const missing = [...declared].filter((description) => !passed.has(description));
    if (missing.length > 0) {
      return { written: false, reason: `${missing.length} consumer test(s) did not run` };
    }
    const scratchFile = join(scratchDir, `${CONSUMER}-${PROVIDER}.json`);
    const pact = JSON.parse(readFileSync(scratchFile, 'utf8')) as PactFile;
    const text = normalizePact(pact);
    for (const name of readdirSync(PACT_DIR)) {
      if (name.endsWith('.json')) rmSync(join(PACT_DIR, name));
    }
    writeFileSync(PACT_FILE, text);
    return { written: true, file: PACT_FILE };
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}
