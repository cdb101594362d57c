// Loading a page on the server: its route's queries through the public answers kept, and the
// visitor's basket, each until the page's deadline.
import { getBasket, getTotalPrice } from '../api/basket';
import { failureCase } from '../api/call-failure';
import { errorStatus } from '../api/http';
import type { BasketSeed, BasketStart } from '../features/basket/store';
import { pageQueries } from '../app/routes';
import { type FormOutcome, PageData } from '../ui/page-data';
import { type BackendCalls, visitorIdentity } from './backend-calls';
import type { PublicAnswers } from './public-answers';

/** A page's data as loaded: what it renders from and embeds, and what its answers tell. */
export interface LoadedPage {
  page: PageData;
  basket: BasketStart;
  /** Part of it is the last good answer standing in for one the backend did not give. */
  standIn: boolean;
  /** What it shows (src/lib/shown-data.ts). */
  shows: string[];
}

/**
 * The visitor's basket. A newcomer gets their session (and its CSRF token) from this call, before
 * the page goes out: their first tap, made before the app's code arrives or just after, already
 * has what a change of the basket needs.
 */
async function loadBasketSeed({ api, visitor }: BackendCalls): Promise<BasketSeed> {
  if (visitorIdentity(visitor) !== null) {
    const [lines, amount_sum] = await Promise.all([getBasket(api), getTotalPrice(api)]);
    return { lines, amount_sum };
  }
  const lines = await getBasket(api);
  return { lines, amount_sum: Object.keys(lines).length > 0 ? await getTotalPrice(api) : 0 };
}

/** A basket with nothing in it: what a page for everyone shows. */
const EMPTY_BASKET: BasketSeed = { lines: {}, amount_sum: 0 };

/**
 * Runs the page's queries and loads the visitor's basket, each until the calls' deadline, which
 * ends every call still under way. Public data the backend did not give comes from its last good
 * answers. A 404 is kept (the page redirects, spec §8); any other failure too, by its case, and
 * the page says it could not load and why (the basket: the case instead), with `Повторить`.
 */
export async function loadPage(
  answers: PublicAnswers,
  url: string,
  calls: BackendCalls,
  { outcome, shared, freshSince }: { outcome: FormOutcome; shared: boolean; freshSince?: number },
): Promise<LoadedPage> {
  const page = new PageData(url, {}, {}, outcome);
  let standIn = false;
  const shows = new Set<string>();
  let basket: BasketStart = shared ? EMPTY_BASKET : 'unreachable';
  const seedLoad = (shared ? Promise.resolve(EMPTY_BASKET) : loadBasketSeed(calls)).then(
    (seed) => {
      basket = seed;
    },
    (error: unknown) => {
      basket = failureCase(error);
    },
  );
  // A newcomer's session comes with the basket: the page's other calls wait for it, or each
  // would start a session of its own.
  const established = shared || visitorIdentity(calls.visitor) !== null ? undefined : seedLoad;
  const queryLoads = Promise.resolve(established).then(() =>
    Promise.all(
      pageQueries(url).map((query) =>
        answers.load(query, calls.api, freshSince).then(
          (loaded) => {
            page.answers[query.key] = loaded.value;
            standIn ||= loaded.standIn;
            for (const name of query.shows(loaded.value)) shows.add(name);
          },
          (error: unknown) => {
            // The page shows its error state, and `Повторить` (a form) asks again: without the
            // app, and before it runs, a page left loading would stay so.
            page.refused[query.key] = errorStatus(error) === 404 ? 404 : failureCase(error);
          },
        ),
      ),
    ),
  );
  // Every call ends by the deadline (the calls' signal), and so does every load: the last good
  // answers that stand in for the late ones are in before the page renders.
  await Promise.all([seedLoad, queryLoads]);
  return { page, basket, standIn, shows: [...shows] };
}
