// The visitor's scheme, read in one place for the whole server. Behind nginx it comes from
// X-Forwarded-Proto (trusted from loopback only), and express passes that header on as it is:
// `x`, `javascript` or `https, http` would become the origin of canonical links, OpenGraph, the
// sitemap and the backend's X-Forwarded-Proto (`x://shop` is no URL: every page was a 500).
import express, { type Express, type Request } from 'express';

const expressProtocol = Object.getOwnPropertyDescriptor(express.request, 'protocol')?.get;
if (!expressProtocol) throw new Error('express has no req.protocol getter to wrap');
const readProtocol: (this: Request) => unknown = expressProtocol;

/** Makes `req.protocol` (and `req.secure`) of every request to `app` `https` or `http`. */
export function plainScheme(app: Express): void {
  Object.defineProperty(app.request, 'protocol', {
    configurable: true,
    enumerable: true,
    get(this: Request): 'http' | 'https' {
      // Scheme names are case-insensitive (RFC 3986); anything but https is read as http.
      const said = String(readProtocol.call(this)).toLowerCase();
      return said === 'https' ? 'https' : 'http';
    },
  });
}

/** The request's own origin, or a neutral one when its Host header is not a host. */
export function requestOrigin(req: Request): string {
  try {
    return new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}`).origin;
  } catch {
    return 'http://localhost';
  }
}
