// What both servers (the shop's host/app.ts and the stub's own, stub-server/server.ts) answer
// when a request failed outside their routes.
import type { NextFunction, Request, Response } from 'express';

const ERROR_TEXTS: Record<number, string> = {
  400: 'Некорректный запрос',
  403: 'Доступ запрещён',
  404: 'Не найдено',
};

/**
 * The last error handler: whatever failed outside the routes (a path with a bad `%` encoding under
 * the build's files, say) is a short plain-text page, never Express's page with a stack trace and
 * file paths; those go to the server's log.
 */
export function serverErrors(
  error: unknown,
  _req: Request,
  res: Response,
  next: NextFunction,
): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const status = (error as { status?: unknown } | null)?.status;
  const known = typeof status === 'number' && status >= 400 && status < 500;
  if (!known) console.error('[server] unexpected error', error);
  const code = known ? status : 500;
  res
    .status(code)
    .type('text/plain; charset=utf-8')
    .send(ERROR_TEXTS[code] ?? (known ? 'Некорректный запрос' : 'Внутренняя ошибка сервера'));
}
