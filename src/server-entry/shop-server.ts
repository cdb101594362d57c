// The app's server side for one process: how it reaches the backend, the public answers it keeps
// and the shop's time zone, given once, at start, by the host (host/app.ts), and held here rather
// than in module state. Its functions are all the host calls of it.
import { type BackendCalls, backendCalls, type Visitor } from './backend-calls';
import { type Change, changedShown } from './changes';
import { PublicAnswers, type PublicAnswersOptions } from './public-answers';
import { NO_RECORDER, type ServerRecorder } from './recorder';
import { type RenderRequest, type RenderResult, renderPage } from './render-page';
import { CONSOLE_LOG, type ServerLog } from './server-log';

export interface ShopServerSetup {
  /**
   * Where the server's calls go (the embedded stub, or the real backend's /api); read per
   * request, since the stub's port is known once the server listens.
   */
  baseURL: () => string;
  /** The bounded agent's fetch (host/backend/backend-agent.ts). */
  fetch: typeof fetch;
  /** How long the public answers pages render from are kept. */
  publicAnswers: PublicAnswersOptions;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE), the browser's too. */
  timeZone: string;
  /** Told what the server's side does (backend calls, shared answers, forms); none counts nothing. */
  recorder?: ServerRecorder;
  /** Told of each failed call, for the operator; the console without one. */
  log?: ServerLog;
}

export interface ShopServer {
  /** A request's calls to the backend as `visitor`, all ended within `budgetMs`. */
  startCalls(visitor: Visitor, budgetMs: number): BackendCalls;
  /**
   * The page a request asks for, as HTML, or where it sends the visitor instead
   * (src/server-entry/render-page.tsx).
   */
  renderPage(request: RenderRequest): Promise<RenderResult>;
  /**
   * Marks the kept public answers a change reaches as outdated (host/backend/change-hook.ts):
   * each is asked for again at its next use, and stands in until the backend gives it. Returns
   * how many.
   */
  outdateAnswers(change: Change): number;
}

export function createShopServer(setup: ShopServerSetup): ShopServer {
  const recorder = setup.recorder ?? NO_RECORDER;
  const log = setup.log ?? CONSOLE_LOG;
  const answers = new PublicAnswers(setup.publicAnswers, recorder);
  const { fetch, timeZone } = setup;
  return {
    startCalls: (visitor, budgetMs) =>
      backendCalls({ baseURL: setup.baseURL(), fetch, recorder, log }, visitor, budgetMs),
    renderPage: (request) => renderPage(request, { answers, timeZone }),
    outdateAnswers: (change) => answers.outdate(changedShown(change)),
  };
}
