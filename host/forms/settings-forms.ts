// The shop's own small forms that work before the app's code arrives, and without it: the cookie
// notice's «Продолжить» posts here, the answer sets the cookie and sends the browser back to the
// page it came from. After hydration the app handles the same form itself, with no reload.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Entry } from '../app-entry.ts';
import { requestOrigin } from '../process/request-scheme.ts';
import { type CookieApp, type ShopCookie, shopCookies } from './shop-cookies.ts';

export const COOKIE_CONSENT_PATH = '/cookie-consent';
export const THEME_TOGGLE_PATH = '/theme';

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

/** A setting's form: the cookie set to the request's value, and 303 back to the page. */
function settingForm(
  { sameOriginPath }: Pick<Entry, 'sameOriginPath'>,
  setShopCookie: ReturnType<typeof shopCookies>['setShopCookie'],
  cookie: ShopCookie,
  valueFor: (req: Request) => string,
  { form, record }: { form: string; record?: FormRecord },
) {
  return [
    ...sameSiteForm({ form, record }),
    (req: Request, res: Response) => {
      record?.(form, 'set');
      setShopCookie(req, res, cookie, valueFor(req));
      res.redirect(303, sameOriginPath(formFields(req).back));
    },
  ];
}

export function settingsForms(
  entry: Pick<Entry, 'sameOriginPath'> & CookieApp,
  record?: FormRecord,
): Router {
  const { COOKIES, setShopCookie, themeOf } = shopCookies(entry);
  const router = express.Router();
  router.post(
    COOKIE_CONSENT_PATH,
    settingForm(entry, setShopCookie, COOKIES.cookieAccepted, () => 'true', {
      form: 'cookie_notice',
      record,
    }),
  );
  // The footer's theme toggle: it switches the theme the page was rendered with (the cookie's;
  // the page's inline script mirrors a theme kept only in local storage into it at load).
  router.post(
    THEME_TOGGLE_PATH,
    settingForm(
      entry,
      setShopCookie,
      COOKIES.theme,
      (req) => (themeOf(req) === 'dark' ? 'light' : 'dark'),
      { form: 'theme', record },
    ),
  );
  return router;
}
