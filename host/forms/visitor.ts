// Who a request comes from, as the server's calls to the backend need it
// (src/server-entry/backend-calls.ts): their cookies, passed to the backend as they came, and the
// address and host they used.
import type { Request, Response } from 'express';
import type { Visitor } from '../../src/server-entry/entry-server.tsx';
import type { Entry } from '../app-entry.ts';
import { requestOf } from '../process/request-log.ts';

/** The request's cookies by name, their values as sent. */
export function requestCookies(entry: Entry, req: Request): Record<string, string> {
  return entry.parseCookies(req.headers.cookie);
}

export function visitorOf(entry: Entry, req: Request): Visitor {
  return {
    cookies: requestCookies(entry, req),
    // Express resolves it through the trusted proxies in front (nginx on loopback).
    forwardedFor: req.ip ?? req.socket.remoteAddress ?? '',
    proto: req.protocol,
    host: req.get('host') ?? '',
    requestId: requestOf(req).id,
  };
}

/** Passes on the cookies the backend set for the visitor while the request was handled. */
export function passCookies(res: Response, setCookies: string[]): void {
  if (setCookies.length > 0) res.append('Set-Cookie', setCookies);
}
