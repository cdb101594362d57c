// The server's calls to the backend for one request: one explicit context, made when the request
// comes and ended when it has been answered. It carries who the visitor is (their cookies, token,
// CSRF token, address), a deadline and an abort signal, and hands loaders and form handlers an
// `api` to call src/api's functions with. Nothing of a visitor is kept on a module, so two
// visitors' requests never mix however they overlap, and no call outlives its request.
import { parseCookie, parseSetCookie } from 'cookie';
import { type FetchResponse, ofetch } from 'ofetch';
import { answerShape, callPattern, shapeProblem, Unread } from '../api/answer-shapes';
import { callOutcome, expectedRefusal, FAILURE_CASE } from '../api/call-failure';
import { isJsonType } from '../api/json-type';
import { type Api, UNSAFE_METHODS } from '../api/http';
import { COOKIES } from '../lib/cookie-table';
import { relativeMediaUrls } from '../lib/media-urls';
import { clearCookieLine, isShopDomainCookie } from './cookie-lines';
import { NO_RECORDER, type ServerRecorder } from './recorder';
import { CONSOLE_LOG, type ServerLog } from './server-log';

/** Who is asking, as the shop's server saw the request. */
export interface Visitor {
  /** The request's cookies, by name, their values as sent. */
  cookies: Record<string, string>;
  /** The visitor's address, scheme and host, for the backend's X-Forwarded-* headers. */
  forwardedFor: string;
  proto: string;
  host: string;
  /** The request's id (nginx's X-Request-Id, or the server's own), sent on every call. */
  requestId?: string;
}

/** How this process reaches the backend (host/backend/backend-agent.ts makes it, once). */
export interface Backend {
  /** Where /api lives: `https://backend.example/api`. */
  baseURL: string;
  /**
   * `fetch` through the bounded agent (its callFetch): it fails at once when every socket is
   * taken, and fails a redirect and an answer over the size cap.
   */
  fetch: typeof fetch;
  /** Told of every call: its name, how it ended and how long it took. */
  recorder?: ServerRecorder;
  /** Told of every call that failed (the console without one). */
  log?: ServerLog;
}

/** Django's session cookie, and the token's cookie mirror (src/api/token.ts). */
export const SESSION_COOKIE = 'sessionid';
export const TOKEN_COOKIE = COOKIES.token.name;
export const CSRF_COOKIE = 'csrftoken';

/**
 * The cookies the backend reads: its session, its CSRF token and the token's mirror. Every other
 * cookie of the visitor's (a sibling app's `city=Москва`, an analytics JSON, the shop's own) is
 * none of its business, and never goes to it.
 */
export const BACKEND_COOKIES: readonly string[] = [SESSION_COOKIE, CSRF_COOKIE, TOKEN_COOKIE];

/** Values kept and sent exactly as they came: the backend reads its own cookies, not ours. */
const AS_SENT = { decode: (value: string) => value };

/**
 * A value that can go back in a Cookie header as it is: no `;` and no control character (what
 * Node's parser let into a header is bytes 0x20 to 0xff, read as Latin-1, and goes out the same).
 */
const SENDABLE = /^[\t\x20-\x3a\x3c-\x7e\x80-\xff]*$/;

/** A token or CSRF value as it may go in a header of its own: visible ASCII, nothing else. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/;

/**
 * Of a request's cookies, the backend's (BACKEND_COOKIES) that can be sent on: the first of each
 * name, its value byte for byte as the visitor sent it. A cookie that cannot is left out, never
 * thrown on.
 */
export function backendCookies(cookies: Record<string, string>): Map<string, string> {
  const own = new Map<string, string>();
  for (const name of BACKEND_COOKIES) {
    const value = cookies[name];
    if (value !== undefined && SENDABLE.test(value)) own.set(name, value);
  }
  return own;
}

/** The Cookie header of `cookies` (name and value as given), or undefined for none. */
export function cookieHeader(cookies: Map<string, string>): string | undefined {
  if (cookies.size === 0) return undefined;
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * A visitor's Cookie header as the backend gets it, from the shop's server or through /api: its
 * own cookies only (BACKEND_COOKIES), as sent; undefined when the visitor has none of them.
 */
export function backendCookieHeader(header: string | undefined): string | undefined {
  return cookieHeader(backendCookies(parseCookies(header)));
}

/** A request's Cookie header, by name (the first of a name wins, as Django reads it). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseCookie(header ?? '', AS_SENT))) {
    if (value !== undefined) cookies[name] = value;
  }
  return cookies;
}

/** A cookie's value decoded as the browser's code wrote it; null when absent or malformed. */
export function cookieText(cookies: Record<string, string>, name: string): string | null {
  const raw = cookies[name];
  if (raw === undefined) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Raised when a request's budget is spent: its calls stop, and it answers with what it has. */
export class DeadlineError extends Error {
  constructor() {
    super('the backend did not answer within the budget');
    this.name = 'DeadlineError';
  }
}

/** The backend answered a call with something else than the JSON of its shape (src/api/types.ts). */
export class UnexpectedAnswerError extends Error {
  constructor(call: string, why: string) {
    super(`the backend's answer to ${call} ${why}`);
    this.name = 'UnexpectedAnswerError';
  }
}

/**
 * Checks a successful answer against the shape of its call (src/api/answer-shapes.ts): what the
 * page or form reads of it is there, of its type. Anything else fails the call, as an outage
 * does: the page shows its "not loaded" state, the form its message, and it is never kept.
 */
function checkAnswer(method: string, path: string, response: FetchResponse<unknown>): void {
  const call = `${method} ${path}`;
  const shape = answerShape(method, path);
  if (!shape) throw new UnexpectedAnswerError(call, 'has no declared shape');
  // A removal's answer is never read: DRF's Response(status=200) (no type) and Django's
  // HttpResponse(status=200) (text/html) remove the line as well as a 204 does.
  if (shape === Unread) return;
  const data = response._data;
  const type = response.headers.get('content-type');
  if (!isEmptyBody(data) && !isJsonType(type)) {
    throw new UnexpectedAnswerError(call, `is ${type ?? 'untyped'}, not JSON`);
  }
  const problem = shapeProblem(method, path, data);
  if (problem) throw new UnexpectedAnswerError(call, problem);
}

/** What a failed call met, in a few words for the log: its status, or the error under it. */
function failureDetail(error: unknown): string {
  const status = (error as { response?: Response }).response?.status;
  if (status) return `HTTP ${status}`;
  let cause: unknown = error;
  // ofetch's FetchError repeats the URL; the error it wraps says what happened.
  while (cause instanceof Error && cause.name === 'FetchError' && cause.cause) cause = cause.cause;
  const { code, message } = cause as { code?: unknown; message?: unknown };
  return (
    [code, message].filter((part) => typeof part === 'string' && part).join(' ') || String(cause)
  );
}

/**
 * Whether the operator is told of a failed call: not of the refusals the shop's flows expect (a
 * 404, a 400…), which `expectedRefusal` knows by the call's path, its status, and whether it went
 * out with the visitor's token (ofetch keeps its options, the token's header included).
 */
function isNews(path: string, error: unknown): boolean {
  const status = (error as { response?: Response }).response?.status ?? 0;
  const sent = new Headers((error as { options?: { headers?: HeadersInit } }).options?.headers);
  return !expectedRefusal({ path, status, tokenSent: sent.has('Authorization') });
}

/** Whether ofetch read no bytes: no body, or an empty text (or blob, for a type not text). */
function isEmptyBody(data: unknown): boolean {
  return data === undefined || data === '' || (data instanceof Blob && data.size === 0);
}

export interface BackendCalls {
  /** src/api's functions take it as their last argument. */
  api: Api;
  /** Aborted at the deadline, or when the request has been answered. */
  signal: AbortSignal;
  visitor: Visitor;
  /** Told of the request's calls, and of what its form did (src/server-entry/forms.ts). */
  recorder: ServerRecorder;
  /** Whether the deadline passed: a call that failed then got no answer in time. */
  timedOut(): boolean;
  /** Milliseconds left before the deadline (0 once it passed). */
  remainingMs(): number;
  /** Ends every call still under way: the request has been answered. */
  end(): void;
  /** The visitor's cookies of the backend's now: the request's, with what it set since. */
  cookies(): Record<string, string>;
  /** Leaves a cookie out of the next calls (not out of the visitor's browser). */
  forget(name: string): void;
  /** The backend's Set-Cookie lines for the visitor's answer: the last one of each cookie. */
  setCookies(): string[];
}

/** One request's calls, made as `visitor`, all ended within `budgetMs`. */
export function backendCalls(backend: Backend, visitor: Visitor, budgetMs: number): BackendCalls {
  const controller = new AbortController();
  const deadline = Date.now() + budgetMs;
  const timer = setTimeout(() => controller.abort(new DeadlineError()), budgetMs);
  timer.unref();
  // The backend's cookies only, as sent; then what it sets for the visitor on the way.
  const jar = backendCookies(visitor.cookies);
  const setCookies = new Map<string, string>();
  const backendOrigin = new URL(backend.baseURL).origin;
  const basePath = new URL(backend.baseURL).pathname.replace(/\/+$/, '');
  const shopOrigin = `${visitor.proto}://${visitor.host}`;

  const takeSetCookie = (line: string) => {
    const { name, value, maxAge, expires } = parseSetCookie(line, AS_SENT);
    // A cookie for another domain never reaches the visitor, nor the next calls.
    if (!name || !isShopDomainCookie(line, visitor.host)) return;
    setCookies.set(name, line);
    if (!BACKEND_COOKIES.includes(name)) return;
    const expired =
      (maxAge !== undefined && maxAge <= 0) || (expires !== undefined && +expires <= Date.now());
    if (expired || !value || value === '""' || !SENDABLE.test(value)) jar.delete(name);
    else jar.set(name, value);
  };

  const client = ofetch.create(
    {
      baseURL: backend.baseURL,
      signal: controller.signal,
      // No silent retries: the budget is for one try, and a form's write must not happen twice.
      retry: 0,
      onRequest({ options }) {
        // Always the request's own: a function of src/api that passes a signal of its own (the
        // browser's search cancels its older requests) must not take a call past the deadline.
        options.signal = controller.signal;
        const headers = new Headers(options.headers);
        headers.set('Accept', 'application/json');
        headers.set('X-Forwarded-For', visitor.forwardedFor);
        headers.set('X-Forwarded-Proto', visitor.proto);
        headers.set('X-Forwarded-Host', visitor.host);
        // Django checks an HTTPS post's Referer against the host it was asked under.
        headers.set('Referer', `${shopOrigin}/`);
        if (visitor.requestId) headers.set('X-Request-Id', visitor.requestId);
        // Never re-serialised: pieces of the visitor's own header, which nothing here can break.
        const cookie = cookieHeader(jar);
        if (cookie) headers.set('Cookie', cookie);
        const token = cookieText(Object.fromEntries(jar), TOKEN_COOKIE);
        if (token && TOKEN_TEXT.test(token)) headers.set('Authorization', `Token ${token}`);
        const csrf = jar.get(CSRF_COOKIE);
        const unsafe = UNSAFE_METHODS.has((options.method ?? 'GET').toUpperCase());
        if (csrf && TOKEN_TEXT.test(csrf) && unsafe) headers.set('X-CSRFToken', csrf);
        options.headers = headers;
      },
      onResponse({ request, options, response }) {
        for (const line of response.headers.getSetCookie()) takeSetCookie(line);
        // A token the backend no longer knows (revoked, another device's logout) would make it
        // refuse every call for this visitor: the next calls go without it, and the visitor's
        // browser forgets it.
        if (response.status === 401 && jar.has(TOKEN_COOKIE)) {
          // The app then drops its copy too.
          takeSetCookie(clearCookieLine(COOKIES.token, visitor.proto === 'https'));
        }
        if (response.ok) {
          const { pathname } = new URL(String(request));
          const path = pathname.slice(basePath.length);
          checkAnswer(options.method ?? 'GET', path, response);
        }
        // Image URLs on the backend's host, or on the shop's (a backend that honours
        // X-Forwarded-Host), become paths the page shows through the shop's /media.
        if (response._data !== undefined) {
          response._data = relativeMediaUrls(response._data, [backendOrigin, shopOrigin]);
        }
      },
    },
    { fetch: backend.fetch },
  );
  const recorder = backend.recorder ?? NO_RECORDER;
  const log = backend.log ?? CONSOLE_LOG;
  // Every call ends here, however it fails (before an answer, at its status, while its body
  // comes, at its shape): the one place that times it, counts it by its name in src/api's table
  // (never its path: ids are countless), and tells the operator of its failure.
  const api = Object.assign(async (request: string, options?: Parameters<Api>[1]) => {
    const method = (options?.method ?? 'GET').toUpperCase();
    const path = request.replace(/[?#].*$/, '');
    const pattern = callPattern(method, path);
    const call = pattern ? `${method} /api${pattern}` : `${method} other`;
    const started = performance.now();
    try {
      const answer: unknown = await client(request, options);
      recorder.backendCall(call, 'ok', (performance.now() - started) / 1000);
      return answer;
    } catch (error) {
      // A call ended because its request was answered (a page that went out without waiting
      // for it) is no answer of the backend's, good or bad: it is neither counted nor logged.
      const ended =
        controller.signal.aborted && !(controller.signal.reason instanceof DeadlineError);
      if (!ended) {
        const outcome = callOutcome(error);
        recorder.backendCall(call, outcome, (performance.now() - started) / 1000);
        if (isNews(path, error)) {
          log.callFailed({
            id: visitor.requestId,
            case: FAILURE_CASE[outcome],
            outcome,
            call: `${method} /api${path}`,
            why: failureDetail(error),
          });
        }
      }
      throw error;
    }
  }, client) as Api;

  return {
    api,
    signal: controller.signal,
    visitor,
    recorder,
    timedOut: () => controller.signal.reason instanceof DeadlineError,
    remainingMs: () => Math.max(0, deadline - Date.now()),
    end: () => {
      clearTimeout(timer);
      if (!controller.signal.aborted) controller.abort();
    },
    cookies: () => Object.fromEntries(jar),
    forget: (name) => jar.delete(name),
    setCookies: () => [...setCookies.values()],
  };
}

/**
 * Who the visitor is to the backend (their session, their login), or null for a newcomer: the
 * basket is theirs from the first call that has it.
 */
export function visitorIdentity(visitor: Visitor): string | null {
  const session = visitor.cookies[SESSION_COOKIE];
  const token = visitor.cookies[TOKEN_COOKIE];
  return session || token ? `${session ?? ''}|${token ?? ''}` : null;
}
