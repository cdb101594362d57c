// The pact's response bodies: every example value wrapped in the matcher a real backend needs.
// Ids are integers, texts and numbers match by type, lists by `eachLike`, URLs and timestamps by
// a pattern. `Body<T>` has exactly the keys of the app's type, so the pact cannot silently lose
// or invent a field. A field that may be null is pinned as null by its own interaction
// (Pact has no "number or null" matcher), which is why list states ask for full records.
import { MatchersV3 as M, type Rule } from '@pact-foundation/pact';
import type {
  Breadcrumbs,
  CarouselSlide,
  NewsItem,
  Order,
  OrderItem,
  Policy,
  Product,
  Section,
  SectionRef,
  Selection,
  User,
} from '../../src/api/types';

export type Body<T> = { [K in keyof T]-?: unknown };

/** Site-absolute paths or absolute URLs: the app puts them into `src` and `href` as they are. */
export const URL_PATTERN = /^(\/|https?:\/\/)\S+$/;
/** ISO 8601 with an offset; fractions of a second allowed (DRF sends microseconds). */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** `channel/post`, as Telegram's widget takes it. */
export const TELEGRAM_POST_PATTERN = /^[A-Za-z0-9_]+\/\d+$/;

const url = (value: string) => M.regex(URL_PATTERN, value);
const orNull = <T>(value: T | null, matcher: (value: T) => unknown): unknown =>
  value === null ? null : matcher(value);

export function productBody(product: Product): Body<Product> {
  return {
    id: M.integer(product.id),
    name: M.string(product.name),
    image: orNull(product.image, url),
    unit: M.string(product.unit),
    unit_step: orNull(product.unit_step, M.number),
    price: orNull(product.price, M.number),
    rest: M.number(product.rest),
    available: M.boolean(product.available),
  };
}

export function sectionRefBody(section: SectionRef): Body<SectionRef> {
  return {
    id: M.integer(section.id),
    name: M.string(section.name),
    image: orNull(section.image, url),
  };
}

/**
 * A list like the example: at least one element, each like the first; or, for an empty example,
 * exactly `[]`, which neither `null` nor a missing key matches (the app reads `.length`).
 */
function listOf<T>(items: readonly T[], body: (item: T) => unknown): unknown {
  const [first] = items;
  return first === undefined ? [] : M.eachLike(body(first));
}

export function sectionBody(section: Section): Body<Section> {
  return {
    ...sectionRefBody(section),
    children: listOf(section.children, sectionRefBody),
    products: listOf(section.products, productBody),
  };
}

export function selectionBody(selection: Selection): Body<Selection> {
  return {
    id: M.integer(selection.id),
    name: M.string(selection.name),
    description: M.string(selection.description),
    sections: listOf(selection.sections, sectionRefBody),
    products: listOf(selection.products, productBody),
  };
}

export const crumbsBody = (crumbs: Breadcrumbs): unknown =>
  listOf(crumbs, (crumb) => ({ id: M.integer(crumb.id), name: M.string(crumb.name) }));

function orderItemBody(item: OrderItem): Body<OrderItem> {
  return {
    id: M.integer(item.id),
    amount: M.number(item.amount),
    price: M.number(item.price),
    product: {
      id: M.integer(item.product.id),
      name: M.string(item.product.name),
      unit: M.string(item.product.unit),
    } satisfies Body<OrderItem['product']>,
  };
}

export function orderBody(order: Order): Body<Order> {
  return {
    id: M.integer(order.id),
    created_ts: M.regex(TIMESTAMP_PATTERN, order.created_ts),
    status: M.integer(order.status),
    order_sum: M.number(order.order_sum),
    items: listOf(order.items, orderItemBody),
  };
}

/**
 * The number `value` at `path`, whatever the backend's notation (`0` or Django's `0.0`), for an
 * answer the app acts on: a type matcher alone would pass a backend that rounds 1.5 kg to 2.0
 * or answers 0 with one step. A fraction must also come as a decimal, so an integer field fails.
 */
export function exactNumber(path: string, value: number): Rule {
  const notation = /^(-?\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!notation) throw new Error(`exactNumber: ${value} has no plain decimal notation`);
  const [, whole, fraction] = notation;
  const pattern = fraction ? `^${whole}\\.${fraction}0*$` : `^${whole}(\\.0+)?$`;
  return {
    path,
    rules: [fraction ? M.decimal(value) : M.number(value), M.regex(pattern, String(value))],
  };
}

export const policyBody = (policy: Policy): Body<Policy> => ({ file: url(policy.file) });

export function slideBody(slide: CarouselSlide): Body<CarouselSlide> {
  return {
    id: M.integer(slide.id),
    text: M.string(slide.text),
    image: orNull(slide.image, url),
    background: M.string(slide.background),
    text_color: M.string(slide.text_color),
  };
}

export const newsBody = (item: NewsItem): Body<NewsItem> => ({
  data_telegram_post: M.regex(TELEGRAM_POST_PATTERN, item.data_telegram_post),
});

export function userBody(user: User): Body<User> {
  return {
    id: M.integer(user.id),
    username: M.string(user.username),
    first_name: M.string(user.first_name),
    last_name: M.string(user.last_name),
    email: M.string(user.email),
  };
}

/** DRF's `{detail}` of 401, 403 and 404. */
export const detailBody = (detail: string) => ({ detail: M.string(detail) });

/** DRF's field errors of a 400: `{field: ["message", …]}`. */
export const fieldErrorsBody = (field: string, message: string) => ({
  [field]: M.eachLike(M.string(message)),
});
