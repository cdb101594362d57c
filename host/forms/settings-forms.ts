// The shop's own small forms that work before the app's code arrives, and without it: the cookie
// notice's «Продолжить» posts here, the answer sets the cookie and sends the browser back to the
// page it came from. After hydration the app handles the same form itself, with no reload.
import express, { type Request, type Response, type Router } from 'express';
import type { Entry } from '../app-entry.ts';
import { formFields, type FormRecord, sameSiteForm } from './same-site.ts';
import { type CookieApp, type ShopCookie, shopCookies } from './shop-cookies.ts';

export const COOKIE_CONSENT_PATH = '/cookie-consent';
export const THEME_TOGGLE_PATH = '/theme';

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
