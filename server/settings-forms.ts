// The shop's own small forms that work before the app's code arrives, and without it: the cookie
// notice's «Продолжить» posts here, the answer sets the cookie and sends the browser back to the
// page it came from. After hydration the app handles the same form itself, with no reload.
import express, { type Request, type Response, type Router } from 'express';
import { requestOrigin, THEME_COOKIE, themeOf } from './render.ts';

export const COOKIE_CONSENT_PATH = '/cookie-consent';
export const THEME_TOGGLE_PATH = '/theme';
const THEME_DAYS = 365;
/** Spec §9: the notice stays away for 30 days. */
const COOKIE_CONSENT_DAYS = 30;

/**
 * Whether the post came from the shop's own page. A browser says so in Sec-Fetch-Site, and in
 * Origin on every POST; a post from another site is refused (it could not be the shopper's
 * choice). A client that sends neither is no browser on another site's page.
 */
export function sameOriginPost(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = req.get('origin');
  if (origin !== undefined && origin !== requestOrigin(req)) return false;
  return true;
}

/**
 * The page to go back to: a path on this site only. Anything else (another host, `//host`,
 * `/\host`, which browsers read as another host) goes to the home page: no open redirect.
 */
export function safeBackPath(back: unknown): string {
  if (typeof back !== 'string' || !back.startsWith('/')) return '/';
  if (back.startsWith('//') || back.startsWith('/\\')) return '/';
  // Control characters (a header split, a tab browsers drop) are no part of a path of ours.
  // eslint-disable-next-line no-control-regex -- these are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(back)) return '/';
  return back;
}

export function settingsForms(): Router {
  const router = express.Router();
  router.post(
    COOKIE_CONSENT_PATH,
    express.urlencoded({ extended: false, limit: '4kb' }),
    (req: Request, res: Response) => {
      res.set('Cache-Control', 'no-store');
      if (!sameOriginPost(req)) {
        res.status(403).type('text/plain; charset=utf-8').send('Запрос с другого сайта отклонён');
        return;
      }
      const back = safeBackPath((req.body as Record<string, unknown> | undefined)?.back);
      res.cookie('cookieAccepted', 'true', {
        maxAge: COOKIE_CONSENT_DAYS * 24 * 60 * 60 * 1000,
        path: '/',
        sameSite: 'lax',
      });
      res.redirect(303, back);
    },
  );
  // The footer's theme toggle: it switches the theme the page was rendered with (the cookie's;
  // the page's inline script mirrors a theme kept only in local storage into it at load).
  router.post(
    THEME_TOGGLE_PATH,
    express.urlencoded({ extended: false, limit: '4kb' }),
    (req, res) => {
      res.set('Cache-Control', 'no-store');
      if (!sameOriginPost(req)) {
        res.status(403).type('text/plain; charset=utf-8').send('Запрос с другого сайта отклонён');
        return;
      }
      const next = themeOf(req) === 'dark' ? 'light' : 'dark';
      res.cookie(THEME_COOKIE, next, {
        maxAge: THEME_DAYS * 24 * 60 * 60 * 1000,
        path: '/',
        sameSite: 'lax',
      });
      res.redirect(303, safeBackPath((req.body as Record<string, unknown> | undefined)?.back));
    },
  );
  return router;
}
