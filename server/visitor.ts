// Who a request comes from, as the app's server-side calls need it (src/server/visitor-calls.ts):
// their cookies, passed to the backend as they came, and the address and host they used.
import type { Request, Response } from 'express';
import type { Visitor } from '../src/server/visitor-calls.ts';

/** The request's cookies by name, their values as sent. */
export function requestCookies(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies[part.slice(0, at).trim()] ??= part.slice(at + 1).trim();
  }
  return cookies;
}

export function visitorOf(req: Request): Visitor {
  return {
    cookies: requestCookies(req),
    // Express resolves it through the trusted proxies in front (nginx on loopback).
    forwardedFor: req.ip ?? req.socket.remoteAddress ?? '',
    proto: req.protocol,
    host: req.get('host') ?? '',
  };
}

/** Passes on the cookies the backend set for the visitor while the request was handled. */
export function passCookies(res: Response, setCookies: string[]): void {
  if (setCookies.length > 0) res.append('Set-Cookie', setCookies);
}

/** A message for the page a form went back to (a basket change that did not land): one view. */
export const NOTICE_COOKIE = 'notice';
