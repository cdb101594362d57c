// The build's files: hashed assets cached for a year (their name changes with their content),
// everything else revalidated; the brotli or gzip copy written at build time when the browser
// takes it (as nginx's gzip_static does), with ETags from express's sendFile.
import { statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';

const YEAR_SECONDS = 31_536_000;

/** Encodings the browser takes (`Accept-Encoding`), leaving out those it refuses with q=0. */
function acceptedEncodings(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves `dir` (dist/client). index.html is the server's page template, never sent as is, and
 * the build's compressed copies are only ever the encodings of their files.
 */
export function staticFiles(dir: string): Router {
  const root = resolve(dir);
  const router = express.Router();
  const cacheControl = (file: string) =>
    file.startsWith(join(root, 'assets') + sep)
      ? `public, max-age=${YEAR_SECONDS}, immutable`
      : 'no-cache';

  router.use((req: Request, res: Response, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let file: string;
    try {
      file = resolve(root, `.${decodeURIComponent(req.path)}`);
    } catch {
      return next();
    }
    // index.html is the server's page template; a .br or .gz copy goes out only as the encoding
    // of its file (below), never by its own name: /index.html.br would be the template too.
    const template = file === join(root, 'index.html');
    if (!file.startsWith(root + sep) || template || /\.(br|gz)$/.test(file) || !isFile(file)) {
      return next();
    }
    const accepted = acceptedEncodings(String(req.headers['accept-encoding'] ?? ''));
    const headers: Record<string, string> = { 'Cache-Control': cacheControl(file) };
    let sent = file;
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (!isFile(file + suffix)) continue;
      res.vary('Accept-Encoding');
      if (!accepted.has(encoding) || sent !== file) continue;
      sent = file + suffix;
      headers['Content-Encoding'] = encoding;
    }
    res.type(extname(file));
    res.sendFile(sent, { headers, dotfiles: 'deny' }, (error) => {
      if (error && !res.headersSent) next();
    });
  });
  return router;
}
