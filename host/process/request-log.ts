// One request, followed from nginx to the backend: nginx gives each request an id
// ($request_id, sent as X-Request-Id), the instance takes it (or makes one when it runs alone),
// sends it on every call it makes to the backend, and writes it in its JSON line of the request
// (pino), with the route, the status and the times. nginx's access log carries the same id, and
// the backend logs the one it received (contracts/README.md). The same log has the operator's
// line for each backend call that failed, under the id of the request that made it.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { pino, type DestinationStream } from 'pino';
import type { ServerLog } from '../app-entry.ts';
import type { RouteLabel } from './request-route.ts';

/** What the instance knows of a request while it handles it. */
export interface RequestContext {
  id: string;
  /** performance.now() when it came. */
  started: number;
  /** How long its page waited for the backend, and then rendered (host/pages/render.ts), in ms. */
  backendWaitMs?: number;
  renderMs?: number;
  /** Its route, once named (host/process/request-route.ts). */
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

export interface ShopLog {
  /** One line per answered request; none when the access log is off. */
  access?: (req: Request, res: Response, next: NextFunction) => void;
  /**
   * A warning for each backend call that failed (the app's server side, createShopServer, and the
   * /api proxy), written whether the access log is on or not: its id, case, outcome, call, why.
   */
  calls: ServerLog;
  /** Writes out what is still buffered (at stop). */
  flush(): void;
}

export interface ShopLogOptions {
  /** One line per answered request: its id, method, address, route, status and milliseconds. */
  access: boolean;
  /** stdout by default, written in batches, not a write per line. */
  destination?: DestinationStream & { flushSync?: () => void };
}

/** The instance's JSON log (pino); `name` names each request's route. */
export function shopLog(name: (req: Request) => RouteLabel, options: ShopLogOptions): ShopLog {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: false });
  const log = pino({ base: undefined, messageKey: 'msg' }, destination);
  const access = (req: Request, res: Response, next: NextFunction) => {
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
  };
  return {
    access: options.access ? access : undefined,
    // One message for every such line, the rest in fields: `jq 'select(.case == "unreadable")'`.
    calls: { callFailed: (failed) => log.warn(failed, 'backend call failed') },
    flush() {
      destination.flushSync?.();
    },
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
