// Headers on every answer: a Content-Security-Policy that lets the page's own inline scripts run
// by their hashes (the same for every visitor, so a shared cache may keep the page), no MIME
// sniffing, a short referrer, and no framing.
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';

/** What every answer carries, besides a Content-Security-Policy. */
const SAFETY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/** An SVG shown on its own (a picture's address opened in a tab) runs nothing and loads nothing. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";
/** A plain-text answer needs nothing at all. */
const TEXT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Telegram's post widget: its script and the frames it makes, on /news only. */
const TELEGRAM_SCRIPT = 'https://telegram.org';
const TELEGRAM_FRAMES = 'https://t.me';

/**
 * `scriptHashes`: the CSP sources of the inline scripts pages carry (host/pages/page-assets.ts).
 */
export function contentSecurityPolicy(path: string, scriptHashes: string[]): string {
  const news = /^\/news\/?$/i.test(path);
  const scripts = ["'self'", ...scriptHashes, ...(news ? [TELEGRAM_SCRIPT] : [])];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    // Mantine writes its theme variables in a <style> element and sizes in style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Product pictures may come from the backend's or a CDN's host.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${news ? TELEGRAM_FRAMES : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Sets the headers. `scriptHashes` is read per request: the build's scripts are known once the
 * renderer has read it. Without `csp` (Vite's dev server injects inline scripts of its own) no
 * policy is sent.
 */
export function securityHeaders({
  csp = true,
  scriptHashes = () => [] as string[],
}: { csp?: boolean; scriptHashes?: () => string[] } = {}) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.set(SAFETY_HEADERS);
    if (csp) res.set('Content-Security-Policy', contentSecurityPolicy(req.path, scriptHashes()));
    next();
  };
}

/** Node's own refusals, by its parser's error code; anything else is a bad request. */
const CLIENT_ERRORS: Record<string, [status: number, reason: string, text: string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'Слишком длинный адрес или заголовки',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Content Too Large', 'Слишком большой запрос'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Запрос не пришёл вовремя'],
};
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'Неверный запрос'];

/**
 * The http server's 'clientError': a request Node refused before express saw it (a bad request
 * line, a control byte in a header, a URL or headers over 16 KB) is answered as Node would, but
 * with the shop's headers and a plain Russian text instead of Node's bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A connection that broke gets nothing more, nor one whose answer to an earlier request is
  // going out (its bytes would be cut in two). Node's own check: the answer in flight on the
  // socket, if any, has sent its head. Earlier answers on a kept-alive connection (nginx's) do not
  // count: without an answer nginx takes the instance for failed, and everyone gets its 502.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })
    ._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, text] = CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST;
  const body = Buffer.from(text);
  const headers = {
    ...SAFETY_HEADERS,
    'Content-Security-Policy': TEXT_POLICY,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  const head = [
    `HTTP/1.1 ${status} ${reason}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]), () => {
    socket.destroy();
  });
}
