// /api and /media passed to the real backend (API_TARGET) as a backend behind a proxy expects:
// it learns who the visitor is and which address they used (X-Forwarded-For, -Proto, -Host), and
// what comes back reaches the visitor as the shop's own answer: the shop's security headers, image
// URLs that load under its CSP, never a backend's HTML error page (a DEBUG traceback), from /api
// only JSON of a bounded size, and from /media only pictures and PDFs (an uploaded page or script
// never runs on the shop's origin).
//
// Written on node:http rather than http-proxy: with a bounded agent, http-proxy's hook for the
// outgoing headers comes once a socket is free, after a queued request's headers have gone
// (setting X-Forwarded-* then throws), and its timeout starts only then too. Here the headers
// are whole before the request is made, and one deadline covers the wait for a socket.
import http, {
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import https from 'node:https';
import type { NextFunction, Request, Response } from 'express';
import type { Entry, FailedOutcome, ServerLog } from '../app-entry.ts';
import { isBackendPath } from './backend-paths.ts';
import { BackendShare, shareLimits } from './backend-share.ts';
import { requestOf } from '../process/request-log.ts';
import { requestOrigin } from '../process/request-scheme.ts';
import { SVG_POLICY } from '../process/security.ts';
import { shopDefaults } from '../process/settings.ts';

/**
 * What an /api answer of the backend's may carry to the visitor besides its body: its type,
 * caching and validators, where a redirect or a new object leads, the cookies of the shop's own
 * domain, and what a refusal says. Everything else stays inside: X-Accel-* (which nginx would
 * obey), Refresh, CORS, Clear-Site-Data, Link, a backend's own security headers (the shop sets
 * its own, host/process/security.ts).
 */
const API_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'vary',
  'location',
  'set-cookie',
  'retry-after',
  'www-authenticate',
  'allow',
  'content-language',
];

/** What a /media file's answer may carry: its type, length, ranges, validators and caching. */
const MEDIA_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-range',
  'accept-ranges',
  'content-disposition',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'vary',
];

/** An /api answer whose body the shop writes itself: its length and type are the shop's. */
const API_HEADERS_REWRITTEN = API_HEADERS.filter((name) => name !== 'content-length');
const API_HEADERS_NO_BODY = API_HEADERS_REWRITTEN.filter((name) => name !== 'content-type');

/** What a visitor or the app gets instead of a backend's HTML error page. */
export const BACKEND_ERROR = 'Сервер магазина ответил ошибкой';
/** What the app gets instead of an answer of the backend's that is not JSON, or too large. */
export const BACKEND_ODD = 'Сервер магазина ответил не так, как ожидалось';
export const BACKEND_DOWN = 'Сервер магазина недоступен';

/** Hop-by-hop headers (RFC 9110 §7.6.1): about one connection, not passed on either way. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  // Node answers a visitor's 100-continue itself.
  'expect',
];

/** What /media may hand out under the shop's name: pictures and PDFs. */
const MEDIA_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
  'image/svg+xml',
  'application/pdf',
]);

const isApi = (req: Request) => req.path.startsWith('/api');

/**
 * The backend's Content-Type as one lower-case type without parameters, or '' when it is not
 * exactly one (`image/png, text/html` is read by browsers as its last type).
 */
export function mediaType(header: string | undefined): string {
  const match = /^\s*([\w.+-]+\/[\w.+-]+)\s*(;[^,]*)?$/.exec(header ?? '');
  return match?.[1]?.toLowerCase() ?? '';
}

function sendError(req: Request, res: Response, status: number, message: string): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set('Cache-Control', 'no-store');
  if (isApi(req)) res.json({ detail: message });
  else res.type('text/plain; charset=utf-8').send(status === 404 ? 'Не найдено' : message);
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  // Connection may name more headers that are about that connection only.
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name) && !named.includes(name)),
  );
}

/**
 * The headers of `from` that `names` allows, onto `to`; of its Set-Cookie lines, those that
 * `ownCookie` says are for the shop's own domain.
 */
function copyHeaders(
  from: IncomingMessage,
  to: Response,
  names: readonly string[],
  ownCookie: (line: string) => boolean,
): void {
  for (const [name, value] of Object.entries(withoutHopByHop(from.headers))) {
    if (value === undefined || !names.includes(name)) continue;
    if (name === 'set-cookie') {
      const lines = (Array.isArray(value) ? value : [value]).filter(ownCookie);
      if (lines.length > 0) to.append('Set-Cookie', lines);
      continue;
    }
    to.setHeader(name, value);
  }
}

/** The answer's body, or null (its connection cut) once it has brought more than `max` bytes. */
async function readCapped(stream: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).byteLength;
    if (total > max) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}

/** Each left out is the settings' default (host/process/settings.ts). */
export interface BackendProxyOptions {
  /**
   * Sockets to the backend at most, per instance (BACKEND_MAX_SOCKETS): a stalled backend can
   * hold no more. Further calls wait for one, each address for its share
   * (host/backend/backend-share.ts).
   */
  maxSockets?: number;
  /**
   * How long the backend has for its whole answer, from the request on: a free socket, the
   * connection, its headers and its last byte (PROXY_TIMEOUT_MS). Shorter than
   * deploy/nginx.conf's proxy_read_timeout (30 s), so that a shopper behind nginx gets the
   * shop's message, not nginx's 504 page; and a whole, since a backend that trickles a byte a
   * second never lets a timeout between two pieces run out.
   */
  timeoutMs?: number;
  /** The most bytes of one /api answer (BACKEND_MAX_ANSWER_BYTES); past it, a 502. */
  maxAnswerBytes?: number;
  /**
   * Told of each call the proxy answers for itself (host/process/request-log.ts); the console
   * without.
   */
  log?: ServerLog;
}

/** What the proxy uses of the app's code (its entry, host/app-entry.ts). */
export type ProxyApp = Pick<
  Entry,
  | 'isJsonType'
  | 'relativeMediaUrls'
  | 'backendCookieHeader'
  | 'isShopDomainCookie'
  | 'isShoppersOwnCall'
  | 'shapeProblem'
  | 'statusOutcome'
  | 'FAILURE_CASE'
  | 'OUTCOME_HEADER'
  | 'expectedRefusal'
  | 'CONSOLE_LOG'
>;

/** What the proxy tells of a call it answers for itself, as it failed. */
type CallFailed = (
  req: Request,
  res: Response,
  failure: { status: number; message: string; outcome: FailedOutcome; why: string },
) => void;

/**
 * A call of the app's the proxy answers for itself, as it failed: its outcome in a header (the
 * app's message reads it) and, unless the shop's flows expect the refusal (a 404, a dropped
 * token's 401), in the operator's log, with its case, the call, why, and the request's id.
 */
function callFailure(app: ProxyApp, log: ServerLog): CallFailed {
  return (req, res, { status, message, outcome, why }) => {
    // Answered already: what fails after (the backend's call, cut short) is no news.
    if (res.writableEnded) return;
    const tokenSent = req.headers.authorization !== undefined;
    if (!app.expectedRefusal({ path: req.path, status, tokenSent })) {
      log.callFailed({
        id: requestOf(req).id,
        case: app.FAILURE_CASE[outcome],
        outcome,
        call: `${req.method} ${req.path}`,
        why,
      });
    }
    if (!res.headersSent) res.set(app.OUTCOME_HEADER, outcome);
    sendError(req, res, status, message);
  };
}

export interface BackendProxy {
  handle(req: Request, res: Response, next: NextFunction): void;
  /** Closes the idle keep-alive sockets to the backend. */
  close(): void;
}

export function backendProxy(
  app: ProxyApp,
  apiTarget: string,
  options: BackendProxyOptions = {},
): BackendProxy {
  const target = new URL(apiTarget);
  const basePath = target.pathname.replace(/\/+$/, '');
  const client = target.protocol === 'https:' ? https : http;
  const maxSockets = options.maxSockets ?? shopDefaults.backendMaxSockets;
  const timeoutMs = options.timeoutMs ?? shopDefaults.proxyTimeoutMs;
  const maxAnswerBytes = options.maxAnswerBytes ?? shopDefaults.backendMaxAnswerBytes;
  const callFailed = callFailure(app, options.log ?? app.CONSOLE_LOG);
  // Keep-alive: a visitor's calls reuse warm connections instead of a handshake each. An idle
  // socket goes after 4 s, before the backend's own keep-alive ends it (Node's and json-server's
  // 5 s): without a timeout Node keeps it until the backend closes it, sometimes just as a call
  // goes out on it, which fails with ECONNRESET, a 502 (seen in a rolling restart, when nginx has
  // no other instance to ask again).
  const agent = new client.Agent({
    keepAlive: true,
    maxSockets,
    maxTotalSockets: maxSockets,
    timeout: 4_000,
  });
  // Which call gets one of those sockets, and when (host/backend/backend-share.ts): the agent
  // itself then never queues.
  const share = new BackendShare(shareLimits(maxSockets));

  const handle = (req: Request, res: Response, next: NextFunction): void => {
    if (!isBackendPath(req.path)) {
      next();
      return;
    }
    const headers = withoutHopByHop(req.headers);
    // The backend is asked under its own name (its ALLOWED_HOSTS need not know the shop's); the
    // shop's goes in X-Forwarded-Host, which Django reads with USE_X_FORWARDED_HOST. Express has
    // read the visitor's address and scheme through the proxies it trusts (nginx on loopback).
    headers.host = target.host;
    const address = req.ip ?? req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = address;
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-host'] = req.get('host') ?? '';
    // The request's id (nginx's, or the instance's own), for the backend's log line.
    headers['x-request-id'] = requestOf(req).id;
    // The backend's own cookies, as the visitor sent them; a sibling app's or an analytics
    // cookie is none of its business (the server's own calls send the same).
    const cookie = app.backendCookieHeader(req.headers.cookie);
    if (cookie) headers.cookie = cookie;
    else delete headers.cookie;
    // JSON comes back plain, so that its image URLs can be rewritten; the shop compresses.
    if (isApi(req)) delete headers['accept-encoding'];

    // Ends the call: its wait for a connection, or the connection itself.
    const ended = new AbortController();
    let outgoing: ClientRequest | undefined;
    let visitorLeft = false;
    const fail = (status: number, why: string) => {
      ended.abort();
      outgoing?.destroy();
      // The visitor went first, and the shop cut the backend's call: nothing failed.
      if (visitorLeft) return;
      const outcome = status === 504 ? 'timeout' : 'refused';
      callFailed(req, res, { status, message: BACKEND_DOWN, outcome, why });
    };
    // Waiting for its share of the connections, connecting, the backend's headers and its body:
    // the shop's message in time (an /api answer is read whole before any of it goes out), or a
    // /media file cut off.
    const deadline = setTimeout(() => fail(504, `no answer in ${timeoutMs} ms`), timeoutMs);
    // A visitor who leaves ends the backend's call too, and frees its socket.
    res.on('close', () => {
      clearTimeout(deadline);
      if (res.writableFinished) return;
      visitorLeft = true;
      ended.abort();
      outgoing?.destroy();
    });
    const kind = app.isShoppersOwnCall(req.method, req.path) ? 'own' : 'public';
    share.take(kind, address, { signal: ended.signal, waitForFree: true }).then(
      (release) => {
        outgoing = client.request({
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[|\]$/g, ''),
          port: target.port,
          method: req.method,
          // The path as the visitor sent it (backendPathGuard has checked it has one reading).
          path: basePath + req.originalUrl,
          headers,
          agent,
        });
        // The connection is given back once the call is over: answered, failed or cut.
        outgoing.on('close', release);
        outgoing.on('error', (error: NodeJS.ErrnoException) =>
          fail(502, error.code ?? error.message),
        );
        outgoing.on('response', (answer) => {
          handleAnswer(app, callFailed, answer, req, res, target.origin, maxAnswerBytes).catch(
            (error: unknown) => fail(502, error instanceof Error ? error.message : String(error)),
          );
        });
        req.pipe(outgoing);
      },
      // Given up while waiting: the deadline has answered, or the visitor has gone.
      () => {},
    );
  };
  return { handle, close: () => agent.destroy() };
}

async function handleAnswer(
  app: ProxyApp,
  callFailed: CallFailed,
  answer: IncomingMessage,
  req: Request,
  res: Response,
  backendOrigin: string,
  maxAnswerBytes: number,
): Promise<void> {
  const { isJsonType, relativeMediaUrls, isShopDomainCookie } = app;
  const status = answer.statusCode ?? 502;
  const type = mediaType(answer.headers['content-type']);
  if (!isApi(req)) {
    await handleMedia(answer, status, type, res, req);
    return;
  }
  // A cookie for another domain (a parent's would reach every site beside the shop) stays inside.
  const ownCookie = (line: string) => isShopDomainCookie(line, req.get('host') ?? '');
  const copy = (names: readonly string[]) => copyHeaders(answer, res, names, ownCookie);
  /** The backend answered, and not so that the app can use it. */
  const refuse = (outcome: FailedOutcome, why: string) => {
    answer.destroy();
    callFailed(req, res, { status: 502, message: BACKEND_ODD, outcome, why });
  };
  // Nothing to judge: a removal's 204, a 304 for what the browser has.
  if (status === 204 || status === 304) {
    copy(API_HEADERS);
    pipeAnswer(answer, status, res);
    return;
  }
  if (status >= 300 && status < 400) {
    // The browser's client would follow a redirect wherever it points: one within the shop's /api
    // goes on as a path (the backend's own address for it too), any other is refused.
    const location = relativeApiPath(answer.headers.location, backendOrigin);
    if (location === null) {
      refuse('redirect', `${status} to ${answer.headers.location ?? '(no Location)'}`);
      return;
    }
    answer.headers.location = location;
    answer.resume();
    copy(API_HEADERS_NO_BODY);
    res.status(status).end();
    return;
  }
  // An answer to HEAD has no body to judge.
  if (req.method === 'HEAD') {
    copy(API_HEADERS);
    pipeAnswer(answer, status, res);
    return;
  }
  const isJson = isJsonType(answer.headers['content-type']);
  if (status >= 400 && !isJson) {
    // Django's HTML 404 and 500 pages (with DEBUG, a traceback and the settings) stay inside.
    answer.resume();
    const outcome = app.statusOutcome(status, false);
    const why = `${status}, ${type || 'untyped'}`;
    callFailed(req, res, { status, message: BACKEND_ERROR, outcome, why });
    return;
  }
  const location = answer.headers.location;
  if (location) answer.headers.location = relativeMediaUrls(location, [backendOrigin]);
  // A page or a script served by the backend never runs on the shop's origin; an answer over the
  // cap is never read whole (its declared length first, then counted as it comes).
  const declaredLength = answer.headers['content-length'];
  const saysItHasBody = declaredLength !== undefined && Number(declaredLength) !== 0;
  if (Number(declaredLength) > maxAnswerBytes) {
    refuse('too_big', `${declaredLength} bytes`);
    return;
  }
  if (!isJson && saysItHasBody) {
    refuse('bad_shape', `${type || 'untyped'}, not JSON`);
    return;
  }
  const text = await readCapped(answer, maxAnswerBytes);
  // An empty body runs as nothing, whatever its type says: a removal that DRF answers with
  // Response(status=200) (no type) or Django with HttpResponse(status=200) (text/html) passes.
  if (text !== null && text.byteLength === 0) {
    copy(API_HEADERS_NO_BODY);
    res.status(status).end();
    return;
  }
  if (text === null) {
    refuse('too_big', `more than ${maxAnswerBytes} bytes`);
    return;
  }
  if (!isJson) {
    refuse('bad_shape', `${type || 'untyped'}, not JSON`);
    return;
  }
  let data: unknown;
  try {
    data = JSON.parse(text.toString('utf8'));
  } catch {
    refuse('bad_shape', 'JSON that does not parse');
    return;
  }
  // What the app reads of a success is there, of its type, as on the server's own calls.
  const problem =
    status < 300 ? app.shapeProblem(req.method, req.path.slice('/api'.length), data) : null;
  if (problem) {
    refuse('bad_shape', `the answer ${problem}`);
    return;
  }
  // Image URLs on the backend's host, or on the shop's (a backend that honours
  // X-Forwarded-Host), become paths: they load on http and https alike.
  const body = JSON.stringify(relativeMediaUrls(data, [backendOrigin, requestOrigin(req)]));
  copy(API_HEADERS_REWRITTEN);
  res.status(status).send(Buffer.from(body));
}

/**
 * A redirect's Location as a path of the shop's /api (relative, or on the backend's own address),
 * or null when it leads anywhere else.
 */
function relativeApiPath(location: string | undefined, backendOrigin: string): string | null {
  if (!location) return null;
  const base = new URL('/api/', backendOrigin);
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith('/api/')) return null;
  return url.pathname + url.search;
}

/**
 * /media: a file of MEDIA_TYPES (200, or 206 for a range), or 304 for one the browser has; a
 * backend's error as the shop's message. Anything else is a 404: an uploaded page, script or
 * archive never goes out under the shop's name, nor does a redirect elsewhere. The type sent is
 * the one judged, and nosniff (host/process/security.ts) keeps the browser to it.
 */
async function handleMedia(
  answer: IncomingMessage,
  status: number,
  type: string,
  res: Response,
  req: Request,
): Promise<void> {
  // No cookie of the backend's goes out with a file.
  const copy = () => copyHeaders(answer, res, MEDIA_HEADERS, () => false);
  if (status === 304) {
    copy();
    pipeAnswer(answer, status, res);
    return;
  }
  const file = (status === 200 || status === 206) && MEDIA_TYPES.has(type);
  if (!file) {
    answer.resume();
    sendError(req, res, status >= 500 ? status : 404, BACKEND_ERROR);
    return;
  }
  answer.headers['content-type'] = type;
  // An SVG can hold scripts: opened on its own, it runs none.
  if (type === 'image/svg+xml') res.set('Content-Security-Policy', SVG_POLICY);
  copy();
  pipeAnswer(answer, status, res);
}

/** The backend's answer's body as it comes (its headers already copied). */
function pipeAnswer(answer: IncomingMessage, status: number, res: Response): void {
  res.status(status);
  // A backend that breaks off mid-answer ends the visitor's answer too. pipe, not pipeline:
  // pipeline puts seven 'close' listeners on the visitor's answer, which with the shop's own
  // (the access log, the drain, the proxy) pass Node's ten and warn on every file.
  answer.on('error', () => res.destroy());
  answer.on('close', () => {
    if (!answer.complete) res.destroy();
  });
  answer.pipe(res);
}
