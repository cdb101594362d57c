// The guard in front of every form the shop's server takes (checkout, login, the basket's, the
// cookie notice's and the theme's) and of the browsers' speed reports: a post from another site
// is refused, since it could not be the shopper's choice.
import express, { type NextFunction, type Request, type Response } from 'express';
import { requestOrigin } from '../process/request-scheme.ts';

/**
 * Whether the post came from the shop's own page. A browser says so in Sec-Fetch-Site, and that
 * decides; an older one sends Origin, whose host must be the one asked (its scheme is not
 * compared: behind a load balancer that ends TLS, the shop itself is asked over http). A post
 * from another site is refused (it could not be the shopper's choice); a client that sends
 * neither is no browser on another site's page.
 */
export function sameOriginPost(req: Request, requireProof = false): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = req.get('origin');
  if (origin === undefined) return !requireProof;
  try {
    return new URL(origin).host === new URL(requestOrigin(req)).host;
  } catch {
    return false;
  }
}

/** Told of each form's outcome (host/process/metrics.ts): the form's name, and how it ended. */
export type FormRecord = (form: string, outcome: string) => void;

/**
 * The start of every form the shop's server handles: the body read, the answer never cached, and
 * a post from another site refused (told to `record` as the form's `cross_site`). `requireProof`:
 * a post that says nothing of where it comes from (no Sec-Fetch-Site, no Origin: no browser of
 * today) is refused too.
 */
export function sameSiteForm({
  requireProof = false,
  form = '',
  record,
}: { requireProof?: boolean; form?: string; record?: FormRecord } = {}) {
  return [
    express.urlencoded({ extended: false, limit: '16kb' }),
    (req: Request, res: Response, next: NextFunction) => {
      res.set('Cache-Control', 'no-store');
      if (!sameOriginPost(req, requireProof)) {
        record?.(form, 'cross_site');
        res.status(403).type('text/plain; charset=utf-8').send('Запрос с другого сайта отклонён');
        return;
      }
      next();
    },
  ];
}

/** The form's fields (an empty object when it had none). */
export function formFields(req: Request): Record<string, unknown> {
  return (req.body as Record<string, unknown> | undefined) ?? {};
}
