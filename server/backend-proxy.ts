// /api and /media passed to the real backend (API_TARGET) as a backend behind a proxy expects:
// it learns who the visitor is and which address they used (X-Forwarded-For, -Proto, -Host), and
// what comes back reaches the visitor as the shop's own answer: the shop's security headers, image
// URLs that load under its CSP, and never a backend's HTML error page (a DEBUG traceback).
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { relativeMediaUrls } from '../src/lib/media-urls.ts';
import { requestOrigin } from './render.ts';

/** Headers the shop sets on every answer itself (server/security.ts); the backend's go. */
const SHOP_HEADERS = [
  'content-security-policy',
  'referrer-policy',
  'x-frame-options',
  'x-content-type-options',
];

/** What a visitor or the app gets instead of a backend's HTML error page. */
export const BACKEND_ERROR = 'Сервер магазина ответил ошибкой';
export const BACKEND_DOWN = 'Сервер магазина недоступен';

/** Hop-by-hop headers (RFC 9110 §7.6.1): about the backend's connection, not the visitor's. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
];

const isApi = (req: IncomingMessage) => (req.url ?? '').startsWith('/api');

function sendError(req: IncomingMessage, res: Response, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set('Cache-Control', 'no-store');
  if (isApi(req)) res.json({ detail: message });
  else res.type('text/plain; charset=utf-8').send(status === 404 ? 'Не найдено' : message);
}

function copyHeaders(from: IncomingMessage, to: Response, skip: string[] = []): void {
  for (const [name, value] of Object.entries(from.headers)) {
    if (value === undefined || SHOP_HEADERS.includes(name) || HOP_BY_HOP.includes(name)) continue;
    if (skip.includes(name)) continue;
    to.setHeader(name, value);
  }
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function backendProxy(apiTarget: string) {
  const backendOrigin = new URL(apiTarget).origin;
  return createProxyMiddleware<Request, Response>({
    target: apiTarget,
    // The backend is asked under its own name (its ALLOWED_HOSTS need not know the shop's);
    // the shop's name goes in X-Forwarded-Host, which Django reads with USE_X_FORWARDED_HOST.
    changeOrigin: true,
    pathFilter: ['/api', '/media'],
    // A backend that cannot be reached is a short 502, not a hung page.
    proxyTimeout: 30_000,
    selfHandleResponse: true,
    on: {
      proxyReq(proxyReq, req) {
        // Express has read the visitor's address through the proxies it trusts (nginx on
        // loopback): one address, which a visitor cannot forge from outside.
        proxyReq.setHeader('X-Forwarded-For', req.ip ?? req.socket.remoteAddress ?? '');
        proxyReq.setHeader('X-Forwarded-Proto', req.protocol);
        proxyReq.setHeader('X-Forwarded-Host', req.get('host') ?? '');
        // JSON comes back plain, so that its image URLs can be rewritten; the shop compresses.
        if (isApi(req)) proxyReq.removeHeader('accept-encoding');
      },
      proxyRes(proxyRes, req, res) {
        handleAnswer(proxyRes, req, res, backendOrigin).catch(() => {
          sendError(req, res, 502, BACKEND_DOWN);
        });
      },
      error(_error, req, res) {
        // A socket (an upgrade) has no answer to give.
        if ('status' in res) sendError(req, res, 502, BACKEND_DOWN);
      },
    },
  });
}

async function handleAnswer(
  proxyRes: IncomingMessage,
  req: Request,
  res: Response,
  backendOrigin: string,
): Promise<void> {
  const status = proxyRes.statusCode ?? 502;
  const type = String(proxyRes.headers['content-type'] ?? '');
  if (status >= 400 && !type.includes('json') && !type.startsWith('image/')) {
    // Django's HTML 404 and 500 pages (with DEBUG, a traceback and the settings) stay inside.
    proxyRes.resume();
    sendError(req, res, status, BACKEND_ERROR);
    return;
  }
  const location = proxyRes.headers.location;
  if (location) {
    proxyRes.headers.location = relativeMediaUrls(location, [backendOrigin]);
  }
  if (isApi(req) && type.includes('json')) {
    const text = (await readBody(proxyRes)).toString('utf8');
    let body: string;
    try {
      // Image URLs on the backend's host, or on the shop's (a backend that honours
      // X-Forwarded-Host), become paths: they load on http and https alike.
      body = JSON.stringify(
        relativeMediaUrls(JSON.parse(text), [backendOrigin, requestOrigin(req)]),
      );
    } catch {
      body = text;
    }
    copyHeaders(proxyRes, res, ['content-length', 'content-encoding']);
    res.status(status).send(Buffer.from(body));
    return;
  }
  copyHeaders(proxyRes, res);
  res.status(status);
  // A backend that breaks off mid-answer ends the visitor's answer too, rather than leaving it
  // open until the proxy's timeout.
  pipeline(proxyRes, res, (error) => {
    if (error) res.destroy();
  });
}
