// Which addresses belong to the backend (/api and /media: the real one's through the proxy, or the
// embedded stub's), and the refusal of any spelling of them that a server further on could read as
// another path: `/media/../admin/`, `/api/%2e%2e/admin`, `/api%2f..%2fadmin`, `/media\..\admin`.
// The backend (or a proxy between) may decode and normalise what the shop passes on as it is, so
// the shop passes only paths that have one reading.
import type { NextFunction, Request, Response } from 'express';

/** `/api` or `/media` as a whole first segment (as the backend spells them). */
export function isBackendPath(path: string): boolean {
  return /^\/(api|media)(\/|$)/.test(path);
}

/** Paths that start like /api or /media however written: these are checked. */
const NEAR_BACKEND = /^\/(api|media)($|[/\\]|%2f|%5c)/i;

/** A segment that is no file or folder name: `.`, `..`, or `..;x` (read as `..` by some servers). */
const DOT_SEGMENT = /^\.\.?(;|$)/;

/**
 * Whether the raw request target has one reading: origin-form, no backslash, and every segment,
 * decoded once, a plain name (no dot-segment, slash, backslash or control character) and not
 * empty (bar a trailing slash).
 */
export function isPlainPath(target: string): boolean {
  if (!target.startsWith('/')) return false;
  const path = target.split('?', 1)[0] ?? '';
  if (path.includes('\\')) return false;
  const segments = path.slice(1).split('/');
  return segments.every((segment, index) => {
    if (segment === '') return index === segments.length - 1;
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return false;
    }
    // eslint-disable-next-line no-control-regex -- these are exactly what is refused
    return !DOT_SEGMENT.test(name) && !/[/\\\u0000-\u001f\u007f]/.test(name);
  });
}

/** Refuses, with the shop's plain 404, any request near /api or /media whose path is not plain. */
export function backendPathGuard() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!NEAR_BACKEND.test(req.path) || isPlainPath(req.originalUrl)) {
      next();
      return;
    }
    res.status(404).set('Cache-Control', 'no-store').type('text/plain; charset=utf-8');
    res.send('Не найдено');
  };
}
