// The visitor's forms the shop's server handles before the app's code arrives, and without it:
// the basket controls, checkout and login. Each calls the backend as the visitor (their cookies,
// token and CSRF token; src/server/visitor-calls.ts) with the app's own rules, passes on the
// cookies the backend set, and answers 303 back, or with the form again when it must be fixed
// (200, as Django's own form views do: the page is the answer, not an error).
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type * as EntryServer from '../src/entry-server.tsx';
import type { PageRenderer } from './render.ts';
import { formFields, safeBackPath, sameSiteForm } from './settings-forms.ts';
import { NOTICE_COOKIE, passCookies, visitorOf } from './visitor.ts';

/** Where a basket control posts (src/features/basket/basket-form.ts). */
const BASKET_PATH = '/basket';
/** Where the checkout form posts (src/features/checkout/commit-form.ts). */
const COMMIT_PATH = '/commit';
/** The login page, as the 401 redirect names it, and without its slash. */
const LOGIN_PATHS = ['/login/', '/login'];
/** The token's cookie mirror (src/api/token.ts), as long as the app keeps it. */
const TOKEN_COOKIE = 'jwt';
const TOKEN_MS = 30 * 24 * 60 * 60 * 1000;
/** How long the same checkout form from the same visitor counts as a second click. */
const DOUBLE_SUBMIT_MS = 30_000;
/** The notice waits a minute for its page: long enough for a slow phone to follow the 303. */
const NOTICE_MS = 60_000;

type Entry = typeof EntryServer;
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

  // A double click posts the form twice (the browser shows the second answer): the second post
  // waits for the first and gets its answer, so one order is placed. Held per server process; a
  // second post that reaches another instance finds the basket emptied and places nothing.
  type CommitAnswer = Awaited<ReturnType<Entry['postCommitForm']>>;
  const ordering = new Map<string, Promise<CommitAnswer>>();
  router.post(
    COMMIT_PATH,
    ...sameSiteForm(),
    handled(async (req, res) => {
      const fields = formFields(req);
      const visitor = visitorOf(req);
      const key = JSON.stringify([visitor.cookies.sessionid, visitor.cookies.jwt, fields]);
      let answer = ordering.get(key);
      if (!answer) {
        const entry = await renderer.entry();
        answer = entry.postCommitForm(visitor, fields);
        ordering.set(key, answer);
        // Only a placed order is kept: a refused form may be sent again as it was.
        answer.then(
          ({ result }) => {
            if (result.kind !== 'placed') ordering.delete(key);
            else setTimeout(() => ordering.delete(key), DOUBLE_SUBMIT_MS).unref();
          },
          () => ordering.delete(key),
        );
      }
      const { result, setCookies } = await answer;
      if (result.kind === 'refused') {
        await renderer.render(req, res, { outcome: result.outcome, setCookies });
        return;
      }
      passCookies(res, setCookies);
      res.redirect(303, result.kind === 'placed' ? '/order_status' : COMMIT_PATH);
    }),
  );

  router.post(
    LOGIN_PATHS,
    ...sameSiteForm(),
    handled(async (req, res) => {
      const entry = await renderer.entry();
      const { result, setCookies } = await entry.postLoginForm(visitorOf(req), formFields(req));
      if (result.kind === 'refused') {
        await renderer.render(req, res, { outcome: result.outcome, setCookies });
        return;
      }
      passCookies(res, setCookies);
      // Readable by the app, which keeps the token in local storage and clears both at logout.
      res.cookie(TOKEN_COOKIE, result.token, { maxAge: TOKEN_MS, path: '/', sameSite: 'lax' });
      const next = new URL(req.originalUrl, 'http://localhost').searchParams.get('next_page');
      res.redirect(303, entry.safeNextPage(next));
    }),
  );

  return router;
}
