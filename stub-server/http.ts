// DRF-style answers and small routing helpers shared by the route modules, and the last error
// handler of the stub's server and the shop's (host/app.ts).
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { DetailError, FieldErrors } from '../src/api/types.ts';

export const NOT_FOUND = 'Не найдено.';

/** Thrown by handlers; the error middleware turns it into a JSON answer. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: DetailError | FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export const notFound = (): HttpError => new HttpError(404, { detail: NOT_FOUND });

export const badRequest = (errors: FieldErrors): HttpError => new HttpError(400, errors);

/** Parses a path id matched by `(\\d+)`; ids beyond the safe integer range cannot exist. */
export function pathId(req: Request, name = 'id'): number {
  const raw = req.params[name];
  const id = Number(raw);
  if (!raw || !Number.isSafeInteger(id)) throw notFound();
  return id;
}

type Method = 'get' | 'put' | 'post' | 'delete';
/** A route handler; one that waits (for a save) returns its promise, and its failure is answered. */
type Handler = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;
type Handlers = Partial<Record<Method, Handler>>;

/** Express 4 does not catch a rejected promise: this passes it on to the error middleware. */
function answering(handler: Handler): RequestHandler {
  return (req, res, next) => {
    const result = handler(req, res, next);
    if (result instanceof Promise) result.catch(next);
  };
}

/**
 * Registers the handlers of one path and answers the other methods like DRF: OPTIONS lists the
 * allowed methods, anything else is 405.
 */
export function defineRoute(router: Router, path: string, handlers: Handlers): void {
  const route = router.route(path);
  const allowed = new Set<string>(['OPTIONS']);
  for (const [method, handler] of Object.entries(handlers) as [Method, Handler][]) {
    route[method](answering(handler));
    allowed.add(method.toUpperCase());
    if (method === 'get') allowed.add('HEAD');
  }
  const allow = [...allowed].join(', ');
  route.all((req: Request, res: Response) => {
    res.setHeader('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    res.status(405).json({ detail: `Метод "${req.method}" не разрешён.` } satisfies DetailError);
  });
}

/** Last middleware of /api: unknown paths. */
export function apiNotFound(_req: Request, res: Response): void {
  res.status(404).json({ detail: NOT_FOUND } satisfies DetailError);
}

/** An error that carries its HTTP status: body-parser's, a bad `%` encoding in the path, send's. */
interface StatusError {
  status: number;
  type?: string;
  message: string;
}

function statusOf(error: unknown): number | null {
  const status = (error as Partial<StatusError> | null)?.status;
  return error instanceof Error && typeof status === 'number' && status >= 400 && status < 600
    ? status
    : null;
}

/** Short Russian texts by status, for errors that come with English ones. */
const BAD_REQUEST = 'Некорректный запрос.';
const STATUS_DETAILS: Record<number, string> = {
  400: BAD_REQUEST,
  403: 'Доступ запрещён.',
  404: NOT_FOUND,
  413: 'Запрос слишком большой.',
  415: 'Неподдерживаемый тип данных в запросе.',
};
export const SERVER_ERROR = 'Внутренняя ошибка сервера.';

/**
 * Error middleware of the stub (/api, /media, /__control): HttpError as it is, JSON the body
 * parser could not read as DRF says it, any other error with a status as a short Russian text,
 * anything else as 500. Never a stack trace or a file path: those go to the server's log.
 */
export function apiErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  if (error instanceof HttpError) {
    res.set(error.headers).status(error.status).json(error.body);
    return;
  }
  const status = statusOf(error);
  if (status !== null && status < 500) {
    const { type, message } = error as StatusError;
    const detail =
      type === 'entity.parse.failed'
        ? `JSON parse error - ${message}`
        : (STATUS_DETAILS[status] ?? BAD_REQUEST);
    res.status(status).json({ detail } satisfies DetailError);
    return;
  }
  console.error('[stub] unexpected error', error);
  res.status(500).json({ detail: SERVER_ERROR } satisfies DetailError);
}
