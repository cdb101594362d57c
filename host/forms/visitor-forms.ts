// The visitor's forms the shop's server handles before the app's code arrives, and without it:
// the basket controls, checkout and login, one route per entry of the forms' table
// (src/server-entry/forms.ts). Each form's calls go to the backend as the visitor, within the form's own
// budget, and end with its request; the answer passes on the cookies the backend set and goes
// 303 back, or shows the form again when it must be fixed.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { PageRenderer } from '../pages/render.ts';
import { formFields, type FormRecord, sameSiteForm } from './same-site.ts';
import { shopCookies } from './shop-cookies.ts';
import { passCookies, visitorOf } from './visitor.ts';

export interface VisitorFormsOptions {
  /** How long a form may take in all, its calls to the backend included. */
  formTimeoutMs: number;
  /** Told of a post refused as another site's (the app's side tells the rest: forms.ts). */
  record?: FormRecord;
}

type Handler = (req: Request, res: Response) => Promise<void>;
const handled = (handler: Handler) => (req: Request, res: Response, next: NextFunction) => {
  handler(req, res).catch(next);
};

export async function visitorForms(
  renderer: PageRenderer,
  { formTimeoutMs, record }: VisitorFormsOptions,
): Promise<Router> {
  const router = express.Router();

  const answerForm = (path: string) =>
    handled(async (req, res) => {
      // Read per request: in development the entry is the source as it is now.
      const { entry, shop } = await renderer.served();
      const handle = entry.FORMS[path];
      if (!handle) throw new Error(`no form handler for ${path}`);
      const calls = shop.startCalls(visitorOf(entry, req), formTimeoutMs);
      let answer: Awaited<ReturnType<typeof handle>>;
      try {
        answer = await handle({
          calls,
          fields: formFields(req),
          query: new URL(req.originalUrl, 'http://localhost').searchParams,
        });
      } finally {
        calls.end();
      }
      if (answer.kind === 'page') {
        await renderer.render(req, res, {
          outcome: answer.outcome,
          setCookies: calls.setCookies(),
          cookies: calls.cookies(),
          budgetMs: calls.remainingMs(),
        });
        return;
      }
      passCookies(res, calls.setCookies());
      const { leaveNotice, setShopCookie } = shopCookies(entry);
      if (answer.notice) leaveNotice(req, res, answer.notice);
      if (answer.cookie) setShopCookie(req, res, answer.cookie.cookie, answer.cookie.value);
      res.redirect(303, entry.sameOriginPath(answer.location));
    });

  const { FORMS, FORM_NAMES } = (await renderer.served()).entry;
  for (const path of Object.keys(FORMS)) {
    // These forms change the visitor's basket, place orders and sign in: a post must say it
    // comes from the shop's own page (Sec-Fetch-Site, or Origin from an older browser).
    const sameSite = sameSiteForm({ requireProof: true, form: FORM_NAMES[path] ?? path, record });
    router.post(path, ...sameSite, answerForm(path));
  }
  return router;
}
