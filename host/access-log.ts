import type { NextFunction, Request, Response } from 'express';

/** One line per answered request: method, path, status, milliseconds. */
export function accessLog() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const status = res.writableFinished ? res.statusCode : `${res.statusCode} (aborted)`;
      process.stdout.write(`${req.method} ${req.originalUrl} ${status} ${ms.toFixed(1)} ms\n`);
    });
    next();
  };
}
