// Test-only faults (set through /__control/faults): matching /api or /media requests wait, fail
// with a status, or lose their connection. They live in memory and are checked before anything
// else, CSRF included.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export interface FaultSpec {
  /** An exact path or a path prefix ending at a `/`: `/api/catalog/basket` also matches `/api/catalog/basket/7`. */
  path: string;
  /** Only this method (any when missing). */
  method?: string;
  /** Answer this status instead of the real answer. */
  status?: number;
  /** The JSON body of that answer (default `{detail}`). */
  body?: object;
  /** Wait this long first (then answer normally unless status/network_error is set). */
  delay_ms?: number;
  /** Destroy the socket: the client sees a network error. */
  network_error?: boolean;
  /** Apply to this many matching requests, then disappear (default: until cleared). */
  times?: number;
}

export interface Fault extends FaultSpec {
  id: number;
  /** How many requests it has hit so far. */
  hits: number;
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export function pathMatches(pattern: string, path: string): boolean {
  const want = trimSlash(pattern);
  const have = trimSlash(path);
  return have === want || have.startsWith(`${want}/`);
}

export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: this.nextId++, hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  remove(id: number): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The first fault matching the request, counted as used. */
  take(method: string, path: string): Fault | null {
    const fault = this.faults.find(
      (candidate) =>
        pathMatches(candidate.path, path) &&
        (!candidate.method || candidate.method.toUpperCase() === method.toUpperCase()),
    );
    if (!fault) return null;
    fault.hits += 1;
    if (fault.times !== undefined && fault.hits >= fault.times) this.remove(fault.id);
    return fault;
  }

  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const fault = this.take(req.method, req.baseUrl + req.path);
      if (!fault) {
        next();
        return;
      }
      const act = () => {
        if (fault.network_error) {
          req.socket.destroy();
          return;
        }
        if (fault.status !== undefined) {
          res
            .status(fault.status)
            .json(fault.body ?? { detail: `Тестовый сбой: ответ ${fault.status}.` });
          return;
        }
        next();
      };
      if (fault.delay_ms) setTimeout(act, fault.delay_ms);
      else act();
    };
  }
}
