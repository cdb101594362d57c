// One request, followed from nginx to the backend: nginx gives each request an id
// ($request_id, sent as X-Request-Id), the instance takes it (or makes one when it runs alone),
// sends it on every call it makes to the backend, and writes it in its JSON line of the request
// (pino), with the route, the status and the times. nginx's access log carries the same id, and
// the backend logs the one it received (contracts/README.md).
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { pino, type DestinationStream } from 'pino';
import type { RouteLabel } from './request-route.ts';

/** What the instance knows of a request while it handles it. */
export interface RequestContext {
  id: string;
  /** performance.now() when it came. */
  started: number;
  /** How long its page waited for the backend, and then rendered (host/render.ts), in ms. */
  backendWaitMs?: number;
  renderMs?: number;
  /** Its route, once named (host/request-route.ts). */
  label?: RouteLabel;
}

/** nginx's $request_id is 32 hex digits; a caller's own id is taken when it is plainly one. */
const newId = () => randomUUID().replaceAll('-', '');
const ID = /^[\w.:-]{1,128}$/;

const contexts = new WeakMap<Request, RequestContext>();

/** The first middleware: every request gets its context, and so its id. */
export function requestIds(req: Request, _res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ID.test(given) ? given : newId();
  contexts.set(req, { id, started: performance.now() });
  next();
}

/** The request's context (one made on the spot for a request that came another way: a test's). */
export function requestOf(req: Request): RequestContext {
  let context = contexts.get(req);
  if (!context) {
    context = { id: newId(), started: performance.now() };
    contexts.set(req, context);
  }
  return context;
}

export interface AccessLog {
  middleware(req: Request, res: Response, next: NextFunction): void;
  /** Writes out what is still buffered (at stop). */
  flush(): void;
}

/**
 * One JSON line per answered request on `destination` (stdout by default, written in batches,
 * not a write per line): its id, method, address, route, status and milliseconds, with the
 * backend wait and render of a page.
 */
export function accessLog(
  name: (req: Request) => RouteLabel,
  destination: DestinationStream & { flushSync?: () => void } = pino.destination({
    dest: 1,
    sync: false,
  }),
): AccessLog {
  const log = pino({ base: undefined, messageKey: 'msg' }, destination);
  return {
    middleware(req, res, next) {
      const context = requestOf(req);
      res.once('close', () => {
        context.label ??= name(req);
        log.info({
          id: context.id,
          method: req.method,
          url: req.originalUrl,
          route: context.label.route,
          status: res.statusCode,
          ms: round(performance.now() - context.started),
          ...(context.backendWaitMs === undefined
            ? {}
            : {
                backend_ms: round(context.backendWaitMs),
                render_ms: round(context.renderMs ?? 0),
              }),
          ...(res.writableFinished ? {} : { aborted: true }),
        });
      });
      next();
    },
    flush() {
      destination.flushSync?.();
    },
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
