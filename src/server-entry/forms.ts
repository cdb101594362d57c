// The forms the shop's server handles before the app's code arrives, and without it: one table,
// path -> handler, which host/forms/visitor-forms.ts loops over. Each handler makes its calls
// through the request's context (its deadline is the form's budget) and says how to answer.
import { LOGIN_PATH } from '../api/http';
import { BASKET_ACTION } from '../features/basket/basket-form';
import { COMMIT_ACTION } from '../features/checkout/commit-form';
import { safeNextPage } from '../features/session/safe-next-page';
import { COOKIES, type ShopCookie } from '../lib/cookie-table';
import type { FormOutcome } from '../ui/page-data';
import type { BackendCalls } from './backend-calls';
import {
  BASKET_LATE,
  BASKET_MAYBE_CHANGED,
  basketFailedText,
  changeBasketByForm,
  FORM_BROKEN,
  PRODUCT_GONE,
} from './basket-form';
import { placeOrderByForm } from './commit-form';
import { LOGIN_LATE, logInByForm } from './login-form';
import type { FormName } from './recorder';

export interface FormRequest {
  calls: BackendCalls;
  fields: Record<string, unknown>;
  /** The query of the address posted to (login's `next_page`). */
  query: URLSearchParams;
}

export type FormAnswer =
  /** 303 to `location` (a path of this site, checked again by the server), with a message for it. */
  | { kind: 'redirect'; location: string; notice?: string; cookie?: FormCookie }
  /** The form's page again (200, as Django's form views answer), as sent, with what failed. */
  | { kind: 'page'; outcome: FormOutcome };

/** A cookie of the shop's own that the answer sets (the token's mirror after a login). */
export interface FormCookie {
  cookie: ShopCookie;
  value: string;
}

export type FormHandler = (request: FormRequest) => Promise<FormAnswer>;

/** What the metrics call each message of the basket's form; any other is the backend's refusal. */
const BASKET_OUTCOMES = new Map([
  [FORM_BROKEN, 'broken'],
  [PRODUCT_GONE, 'product_gone'],
  // A call before the change failed, by the case the shopper is told of.
  [basketFailedText('unreachable'), 'unreachable'],
  [basketFailedText('error'), 'error'],
  [basketFailedText('unreadable'), 'unreadable'],
  [BASKET_LATE, 'late'],
  [BASKET_MAYBE_CHANGED, 'maybe_changed'],
]);

const basketForm: FormHandler = async ({ calls, fields }) => {
  const notice = await changeBasketByForm(calls, fields);
  calls.recorder.form('basket', notice ? (BASKET_OUTCOMES.get(notice) ?? 'refused') : 'changed');
  const back = typeof fields.back === 'string' ? fields.back : '/';
  if (notice) return { kind: 'redirect', location: back, notice };
  // The basket has a line now (or had one: the page it goes back to, the visitor's own, clears
  // the cookie if it is empty).
  const cookie = { cookie: COOKIES.basket, value: '1' };
  return { kind: 'redirect', location: back, cookie };
};

/**
 * A double click posts the form twice (the browser shows the second answer): both carry the
 * form's attempt key, and the backend places one order and answers the second post with the
 * first's answer, whichever instance each post reached.
 */
const commitForm: FormHandler = async ({ calls, fields }) => {
  const result = await placeOrderByForm(calls, fields);
  const { recorder } = calls;
  if (result.kind === 'refused') {
    recorder.form('checkout', result.reason);
    recorder.checkout({ refused: result.reason });
    return { kind: 'page', outcome: result.outcome };
  }
  if (result.kind === 'empty') {
    recorder.form('checkout', 'empty');
    recorder.checkout({ refused: 'empty' });
    return { kind: 'redirect', location: COMMIT_ACTION };
  }
  recorder.form('checkout', result.again ? 'placed_before' : 'placed');
  // An earlier post of this attempt placed it (this one found the basket emptied by it). A post
  // that waited for the first one's answer (409) is told by its key.
  if (!result.again) recorder.checkout({ placed: result.key });
  return { kind: 'redirect', location: '/order_status' };
};

const loginForm: FormHandler = async ({ calls, fields, query }) => {
  const result = await logInByForm(calls, fields);
  if (result.kind === 'refused') {
    const { errors, notice } = result.outcome;
    const invalid = Object.keys(errors ?? {}).length > 0;
    const outcome = notice === LOGIN_LATE ? 'late' : invalid ? 'invalid' : 'refused';
    calls.recorder.form('login', outcome);
    return { kind: 'page', outcome: result.outcome };
  }
  calls.recorder.form('login', 'signed_in');
  return {
    kind: 'redirect',
    location: safeNextPage(query.get('next_page')),
    // Readable by the app, which keeps the token in local storage and clears both at logout.
    cookie: { cookie: COOKIES.token, value: result.token },
  };
};

export const FORMS: Record<string, FormHandler> = {
  [BASKET_ACTION]: basketForm,
  [COMMIT_ACTION]: commitForm,
  // The login page as the 401 redirect names it (Express matches it without the slash too).
  [LOGIN_PATH]: loginForm,
};

/** Each form's name in the metrics, by its path (a post refused before its handler runs too). */
export const FORM_NAMES: Record<string, FormName> = {
  [BASKET_ACTION]: 'basket',
  [COMMIT_ACTION]: 'checkout',
  [LOGIN_PATH]: 'login',
};
