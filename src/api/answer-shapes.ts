// What each call of spec §7 answers (the functions of src/api), as the shop's server checks it
// before a page or a form uses it (src/server-entry/backend-calls.ts), and before its /api passes
// it to the app in the browser (host/backend/backend-proxy.ts): an answer of another shape is a
// failed call, never a page that breaks while rendering, nor an answer kept as the last good one.
// Each shape asks for what the app reads of the answer, as the pact file does (contracts/): where
// the app reads less than the whole type, the shape leaves the rest out, and a backend may too.
//
// Only the server checks. In the browser, valibot, these schemas and this table would cost the
// first view's JavaScript about 2.4 KB gzip, more than the 2.2 KB left in its budget
// (tests/e2e/size-budget.test.ts); the browser's answers come through /api, which checks them.
import { parse as parsePattern } from 'regexparam';
import * as v from 'valibot';
import {
  AmountSum,
  Basket,
  BasketEntry,
  Breadcrumbs,
  CarouselSlide,
  NewsItem,
  Order,
  Policy,
  Product,
  Section,
  SectionRef,
  Selection,
  TokenResponse,
  User,
} from './types';

/**
 * Any answer: a call whose body nobody reads (a removal answers 204, or the line it removed, or an
 * empty 200 of any type); the server checks neither its type nor its shape.
 */
export const Unread = v.unknown();

/** `METHOD /path` (with `:id` for a number of the path) -> the shape of its answer. */
const SHAPES: Record<string, v.GenericSchema> = {
  'GET /catalog/product': v.array(Product),
  'GET /catalog/product_retrieve/:id': Product,
  'GET /catalog/product_search': v.array(Product),
  'GET /catalog/product_breadcrumbs/:id': Breadcrumbs,
  'GET /catalog/section': v.array(SectionRef),
  'GET /catalog/section_root': v.array(SectionRef),
  // The address names the section, and its page shows no picture of it.
  'GET /catalog/section_retrieve/:id': v.omit(Section, ['id', 'image']),
  'GET /catalog/section_search': v.array(SectionRef),
  'GET /catalog/section_breadcrumbs/:id': Breadcrumbs,
  'GET /catalog/selections': v.array(Selection),
  'GET /catalog/selection_retrieve/:id': v.omit(Selection, ['id']),
  'GET /catalog/basket': Basket,
  'PUT /catalog/basket/:id': BasketEntry,
  'DELETE /catalog/basket/:id': Unread,
  'GET /catalog/total_price': AmountSum,
  // The basket takes the ordered products out; nothing else of the order is read.
  'POST /catalog/order_commit': v.object({
    items: v.array(v.object({ product: v.pick(Product, ['id']) })),
  }),
  'GET /catalog/order_history': v.array(Order),
  'GET /content/policy': Policy,
  'GET /content/carousel': v.array(CarouselSlide),
  'GET /telegram/news': v.array(NewsItem),
  'POST /auth/token/': TokenResponse,
  // The names are shown; the id and email are not read.
  'GET /auth/user/me/': v.omit(User, ['id', 'email']),
};

const TABLE = Object.entries(SHAPES).map(([call, shape]) => {
  const [method = '', path = ''] = call.split(' ');
  return { method, path, pattern: parsePattern(path).pattern, shape };
});

const entryOf = (method: string, path: string) => {
  const upper = method.toUpperCase();
  return TABLE.find((entry) => entry.method === upper && entry.pattern.test(path));
};

/**
 * The shape of what `method` `path` (under /api, without its query) answers; undefined for a call
 * src/api does not make.
 */
export function answerShape(method: string, path: string): v.GenericSchema | undefined {
  return entryOf(method, path)?.shape;
}

/**
 * The call's path as this table (and the pact's names) write it, `/catalog/product_retrieve/:id`,
 * for `method` `path` (under /api, without its query); undefined for a call src/api does not make.
 * What the metrics label a call by: never the path itself, whose ids are without number.
 */
export function callPattern(method: string, path: string): string | undefined {
  return entryOf(method, path)?.path;
}

/**
 * Why a successful answer's data is not what `method` `path` answers (its first issue), or null
 * when it is, when nobody reads it (Unread), or when src/api makes no such call.
 */
export function shapeProblem(method: string, path: string, data: unknown): string | null {
  const shape = answerShape(method, path);
  if (!shape || shape === Unread) return null;
  const result = v.safeParse(shape, data);
  return result.success ? null : `is not of its shape: ${result.issues[0].message}`;
}
