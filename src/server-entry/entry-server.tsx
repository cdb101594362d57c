// The app's server side as the Node host (host/) sees it, built as dist/server/entry-server.js:
// it composes and does nothing itself. createShopServer (shop-server.ts) holds what one process
// needs; loading a page (load-page.ts), rendering it (render-page.tsx) and the forms' table
// (forms.ts) are modules of their own.
export { createShopServer, type ShopServer, type ShopServerSetup } from './shop-server';
export { isPublicPage, pageRoute, type RenderRequest, type RenderResult } from './render-page';
export type { BackendCalls } from './backend-calls';
export { PAGE_DATA_ID } from '../app/embedded-page';
export { FORM_NAMES, FORMS, type FormAnswer, type FormHandler } from './forms';
export { backendCookieHeader, parseCookies, visitorIdentity } from './backend-calls';
export { robotsTxt, sitemapPaths } from '../app/sitemap';
/** Every variable of the theme, for the head of every page (the same on each). */
export { themeVariablesCss } from '../app/theme-variables';
// The rest of what the Node host (host/) uses of the app's code: it imports nothing of src/ but
// this entry (eslint.config.js holds it to that), so each module is loaded once, in the build.
export type { Visitor } from './backend-calls';
export type { FormOutcome } from '../ui/page-data';
export type { PublicAnswersOptions } from './public-answers';
export { type Change, changedShown, isReached, joinChanges, NO_CHANGE } from './changes';
export type { CallOutcome, ServerRecorder } from './recorder';
export { CONSOLE_LOG, type FailedCall, type ServerLog } from './server-log';
export { callPattern, shapeProblem } from '../api/answer-shapes';
export { PAGE_KINDS, RUM_MAX_SAMPLES, RUM_METRICS } from '../lib/rum-beacon';
export { sameOriginPath } from '../lib/same-origin-path';
export { IMAGE_ROUTE, IMAGE_VERSION, IMAGE_WIDTHS, OG_IMAGE, OG_WIDTH } from '../lib/image-url';
export { relativeMediaUrls } from '../lib/media-urls';
export { isJsonType } from '../api/json-type';
export { isShoppersOwnCall } from '../api/http';
export {
  expectedRefusal,
  FAILURE_CASE,
  OUTCOME_HEADER,
  statusOutcome,
  type FailedOutcome,
  type FailureCase,
} from '../api/call-failure';
export { DEFAULT_TIME_ZONE } from '../lib/shop-time-zone';
export { COOKIES, type ShopCookie } from '../lib/cookie-table';
export { clearCookieLine, isShopDomainCookie, setCookieLine } from './cookie-lines';
