// The visitor's forms the shop's server handles before the app's code arrives, and without it:
// the basket controls, checkout and login. Each calls the backend as the visitor (their cookies,
// token and CSRF token; src/server/visitor-calls.ts) with the app's own rules, passes on the
// cookies the backend set, and answers 303 back, or with the form again when it must be fixed.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { PageRenderer } from './render.ts';
import { formFields, safeBackPath, sameSiteForm } from './settings-forms.ts';
import { NOTICE_COOKIE, passCookies, visitorOf } from './visitor.ts';

/** Where a basket control posts (src/features/basket/basket-form.ts). */
const BASKET_PATH = '/basket';
/** The notice waits a minute for its page: long enough for a slow phone to follow the 303. */
const NOTICE_MS = 60_000;

type Handler = (req: Request, res: Response) => Promise<void>;
const handled = (handler: Handler) => (req: Request, res: Response, next: NextFunction) => {
  handler(req, res).catch(next);
};

export function visitorForms(renderer: PageRenderer): Router {
  const router = express.Router();

  router.post(
    BASKET_PATH,
    ...sameSiteForm(),
    handled(async (req, res) => {
      const fields = formFields(req);
      const entry = await renderer.entry();
      const { result: notice, setCookies } = await entry.postBasketForm(visitorOf(req), fields);
      passCookies(res, setCookies);
      if (notice) {
        res.cookie(NOTICE_COOKIE, notice, {
          maxAge: NOTICE_MS,
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
        });
      }
      res.redirect(303, safeBackPath(fields.back));
    }),
  );

  return router;
}
