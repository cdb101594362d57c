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
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import type { Entry } from './app-entry.ts';
import { isBackendPath } from './backend-paths.ts';
import { requestOf } from './request-log.ts';
import { requestOrigin } from './request-scheme.ts';
import { SVG_POLICY } from './security.ts';
import { shopDefaults } from './settings.ts';

/** Headers the shop sets on every answer itself (host/security.ts); the backend's go. */
const SHOP_HEADERS = [
  'content-security-policy',
  'referrer-policy',
  'x-frame-options',
  'x-content-type-options',
];

/** What a visitor or the app gets instead of a backend's HTML error page. */
export const BACKEND_ERROR = 'Сервер магазина ответил ошибкой';
/** What the app gets instead of an answer of the backend's that is not JSON, or too large. */
export const BACKEND_ODD = 'Сервер магазина ответил не так, как ожидалось';
export const BACKEND_DOWN = 'Сервер магазина недоступен';

/**
 * How long the backend has to begin its answer (a free socket, the connection, its headers), and
 * then between two pieces of it. Shorter than deploy/nginx.conf's proxy_read_timeout (30 s), so
 * that a shopper behind nginx gets the shop's message, not nginx's 504 page: a constant of the
 * recipe, not a setting.
 */
export const PROXY_TIMEOUT_MS = 20_000;

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

function copyHeaders(from: IncomingMessage, to: Response, skip: string[] = []): void {
  for (const [name, value] of Object.entries(withoutHopByHop(from.headers))) {
    if (value === undefined || SHOP_HEADERS.includes(name) || skip.includes(name)) continue;
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

/** Each left out is the settings' default (host/settings.ts). */
export interface BackendProxyOptions {
  /**
   * Sockets to the backend at most, per instance (BACKEND_MAX_SOCKETS): a stalled backend can
   * hold no more. Further calls wait for one.
   */
  maxSockets?: number;
  /** PROXY_TIMEOUT_MS unless a test needs it shorter. */
  timeoutMs?: number;
  /** The most bytes of one /api answer (BACKEND_MAX_ANSWER_BYTES); past it, a 502. */
  maxAnswerBytes?: number;
}

/** What the proxy uses of the app's code (its entry, host/app-entry.ts). */
export type ProxyApp = Pick<Entry, 'isJsonType' | 'relativeMediaUrls'>;

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
  const timeoutMs = options.timeoutMs ?? PROXY_TIMEOUT_MS;
  const maxAnswerBytes = options.maxAnswerBytes ?? shopDefaults.backendMaxAnswerBytes;
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
    headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-host'] = req.get('host') ?? '';
    // The request's id (nginx's, or the instance's own), for the backend's log line.
    headers['x-request-id'] = requestOf(req).id;
    // JSON comes back plain, so that its image URLs can be rewritten; the shop compresses.
    if (isApi(req)) delete headers['accept-encoding'];

    const outgoing = client.request({
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port,
      method: req.method,
      // The path as the visitor sent it (backendPathGuard has checked it has one reading).
      path: basePath + req.originalUrl,
      headers,
      agent,
    });
    const fail = (status: number) => {
      outgoing.destroy();
      sendError(req, res, status, BACKEND_DOWN);
    };
    // Waiting for a socket, connecting, and the backend's headers: the shop's message in time.
    const deadline = setTimeout(() => fail(504), timeoutMs);
    // Then a backend that stops sending mid-answer: the answer ends rather than hanging.
    outgoing.setTimeout(timeoutMs, () => fail(504));
    outgoing.on('error', () => fail(502));
    outgoing.on('response', (answer) => {
      clearTimeout(deadline);
      handleAnswer(app, answer, req, res, target.origin, maxAnswerBytes).catch(() => fail(502));
    });
    // A visitor who leaves ends the backend's call too, and frees its socket.
    res.on('close', () => {
      clearTimeout(deadline);
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  };
  return { handle, close: () => agent.destroy() };
}

async function handleAnswer(
  { isJsonType, relativeMediaUrls }: ProxyApp,
  answer: IncomingMessage,
  req: Request,
  res: Response,
  backendOrigin: string,
  maxAnswerBytes: number,
): Promise<void> {
  const status = answer.statusCode ?? 502;
  const type = mediaType(answer.headers['content-type']);
  if (!isApi(req)) {
    await handleMedia(answer, status, type, res, req);
    return;
  }
  const refuse = (errorStatus: number, message: string) => {
    answer.destroy();
    sendError(req, res, errorStatus, message);
  };
  // Nothing to judge: a removal's 204, a 304 for what the browser has.
  if (status === 204 || status === 304) {
    pipeAnswer(answer, status, res);
    return;
  }
  if (status >= 300 && status < 400) {
    // The browser's client would follow a redirect wherever it points: one within the shop's /api
    // goes on as a path (the backend's own address for it too), any other is refused.
    const location = relativeApiPath(answer.headers.location, backendOrigin);
    if (location === null) {
      refuse(502, BACKEND_ODD);
      return;
    }
    answer.headers.location = location;
    answer.resume();
    copyHeaders(answer, res, ['content-length', 'content-type', 'content-encoding']);
    res.status(status).end();
    return;
  }
  // An answer to HEAD has no body to judge.
  if (req.method === 'HEAD') {
    pipeAnswer(answer, status, res);
    return;
  }
  const isJson = isJsonType(answer.headers['content-type']);
  if (status >= 400 && !isJson) {
    // Django's HTML 404 and 500 pages (with DEBUG, a traceback and the settings) stay inside.
    answer.resume();
    sendError(req, res, status, BACKEND_ERROR);
    return;
  }
  const location = answer.headers.location;
  if (location) answer.headers.location = relativeMediaUrls(location, [backendOrigin]);
  // A page or a script served by the backend never runs on the shop's origin; an answer over the
  // cap is never read whole (its declared length first, then counted as it comes).
  const declaredLength = answer.headers['content-length'];
  const saysItHasBody = declaredLength !== undefined && Number(declaredLength) !== 0;
  if ((!isJson && saysItHasBody) || Number(declaredLength) > maxAnswerBytes) {
    refuse(502, BACKEND_ODD);
    return;
  }
  const text = await readCapped(answer, maxAnswerBytes);
  // An empty body runs as nothing, whatever its type says: a removal that DRF answers with
  // Response(status=200) (no type) or Django with HttpResponse(status=200) (text/html) passes.
  if (text !== null && text.byteLength === 0) {
    copyHeaders(answer, res, ['content-length', 'content-type', 'content-encoding']);
    res.status(status).end();
    return;
  }
  if (!isJson) {
    sendError(req, res, 502, BACKEND_ODD);
    return;
  }
  let body: string;
  try {
    if (text === null) throw new Error('over the cap');
    // Image URLs on the backend's host, or on the shop's (a backend that honours
    // X-Forwarded-Host), become paths: they load on http and https alike.
    const data: unknown = JSON.parse(text.toString('utf8'));
    body = JSON.stringify(relativeMediaUrls(data, [backendOrigin, requestOrigin(req)]));
  } catch {
    sendError(req, res, 502, BACKEND_ODD);
    return;
  }
  copyHeaders(answer, res, ['content-length', 'content-encoding']);
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
 * the one judged, and nosniff (host/security.ts) keeps the browser to it.
 */
async function handleMedia(
  answer: IncomingMessage,
  status: number,
  type: string,
  res: Response,
  req: Request,
): Promise<void> {
  if (status === 304) {
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
  pipeAnswer(answer, status, res);
}

function pipeAnswer(answer: IncomingMessage, status: number, res: Response): void {
  copyHeaders(answer, res);
  res.status(status);
  // A backend that breaks off mid-answer ends the visitor's answer too.
  pipeline(answer, res, (error) => {
    if (error) res.destroy();
  });
}
