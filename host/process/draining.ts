// How an instance stops without losing a request (docs/deploy.md, "Stopping and restarting"). Once
// it stops, /healthz fails, and every answer still to go out says `Connection: close`: nginx sends
// nothing more on that connection and takes its next requests to the other instance, while this one
// finishes what it started. New connections are refused by then (server.close()), which nginx also
// moves on from.
import type { NextFunction, Request, Response } from 'express';

export interface Draining {
  /** Whether the instance is stopping: /healthz answers 503 then. */
  readonly stopping: boolean;
  /** The first middleware: knows the answers under way, and closes each connection once stopping. */
  track(req: Request, res: Response, next: NextFunction): void;
  /** From now on no answer keeps its connection, the ones under way included. */
  stop(): void;
}

export function draining(): Draining {
  let stopping = false;
  const underWay = new Set<Response>();
  return {
    get stopping() {
      return stopping;
    },
    track(_req, res, next) {
      if (stopping) {
        res.set('Connection', 'close');
      } else {
        underWay.add(res);
        res.once('close', () => underWay.delete(res));
      }
      next();
    },
    stop() {
      stopping = true;
      // Node closes the connection after an answer whose head says so.
      for (const res of underWay) if (!res.headersSent) res.set('Connection', 'close');
      underWay.clear();
    },
  };
}
