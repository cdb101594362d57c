// The visitor's forms the shop's server handles before the app's code arrives, and without it:
// the basket controls, checkout and login. Each calls the backend as the visitor (their cookies,
// token and CSRF token; src/server/visitor-calls.ts) with the app's own rules, passes on the
// cookies the backend set, and answers 303 back, or with the form again when it must be fixed
// (200, as Django's own form views do: the page is the answer, not an error).
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type * as EntryServer from '../src/entry-server.tsx';
import { sameOriginPath } from '../src/lib/same-origin-path.ts';
import type { PageRenderer } from './render.ts';
import { formFields, sameSiteForm } from './settings-forms.ts';
import { NOTICE_COOKIE, passCookies, visitorOf } from './visitor.ts';

/** Where a basket control posts (src/features/basket/basket-form.ts). */
const BASKET_PATH = '/basket';
/** Where the checkout form posts (src/features/checkout/commit-form.ts). */
const COMMIT_PATH = '/commit';
/** The login page as the 401 redirect names it (Express matches it without the slash too). */
const LOGIN_PATH = '/login/';
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

  // These forms change the visitor's basket, place orders and sign in: a post must say it comes
  // from the shop's own page (Sec-Fetch-Site, or Origin from an older browser).
  const sameSite = sameSiteForm({ requireProof: true });
  router.post(
    BASKET_PATH,
    ...sameSite,
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
      res.redirect(303, sameOriginPath(fields.back));
    }),
  );

  // A double click posts the form twice (the browser shows the second answer): the second post
  // waits for the first and gets its answer, so one order is placed. Held per server process; a
  // second post that reaches another instance finds the basket emptied and places nothing.
  type CommitAnswer = Awaited<ReturnType<Entry['postCommitForm']>>;
  const ordering = new Map<string, Promise<CommitAnswer>>();
  const remember = (key: string, answer: Promise<CommitAnswer>) => {
    ordering.set(key, answer);
    // Only a placed order is kept: a refused form may be sent again as it was.
    answer.then(
      ({ result }) => {
        if (result.kind !== 'placed') ordering.delete(key);
        else setTimeout(() => ordering.delete(key), DOUBLE_SUBMIT_MS).unref();
      },
      () => ordering.delete(key),
    );
  };
  router.post(
    COMMIT_PATH,
    ...sameSite,
    handled(async (req, res) => {
      const fields = formFields(req);
      const visitor = visitorOf(req);
      const entry = await renderer.entry();
      // A newcomer has no basket to order from, and nothing to tell two of them apart.
      const identity = entry.visitorIdentity(visitor);
      const key = identity === null ? null : JSON.stringify([identity, fields]);
      let answer = key === null ? undefined : ordering.get(key);
      if (!answer) {
        answer = entry.postCommitForm(visitor, fields);
        if (key !== null) remember(key, answer);
      }
      const { result, setCookies, cookies } = await answer;
      if (result.kind === 'refused') {
        await renderer.render(req, res, { outcome: result.outcome, setCookies, cookies });
        return;
      }
      passCookies(res, setCookies);
      res.redirect(303, result.kind === 'placed' ? '/order_status' : COMMIT_PATH);
    }),
  );

  router.post(
    LOGIN_PATH,
    ...sameSite,
    handled(async (req, res) => {
      const entry = await renderer.entry();
      const { result, setCookies, cookies } = await entry.postLoginForm(
        visitorOf(req),
        formFields(req),
      );
      if (result.kind === 'refused') {
        await renderer.render(req, res, { outcome: result.outcome, setCookies, cookies });
        return;
      }
      passCookies(res, setCookies);
      // Readable by the app, which keeps the token in local storage and clears both at logout.
      res.cookie(entry.TOKEN_KEY, result.token, {
        maxAge: entry.TOKEN_COOKIE_DAYS * 24 * 60 * 60 * 1000,
        path: '/',
        sameSite: 'lax',
        secure: req.secure,
      });
      const next = new URL(req.originalUrl, 'http://localhost').searchParams.get('next_page');
      res.redirect(303, entry.safeNextPage(next));
    }),
  );

  return router;
}
