// The pact's response bodies: the fields the app reads, each example value wrapped in the
// matcher a real backend needs, and nothing the app never reads (a test checks that every field
// the pact asks for is read in src/). Ids are integers, texts and numbers match by type, lists by
// `eachLike`, URLs and timestamps by a pattern. A field the app's type allows to be null
// (`number | null` in src/api/types.ts) is `nullable`: the pact accepts null or the matcher, so
// a realistic database, with products sold by the piece or without a photo, passes in any list.
import { MatchersV3 as M, type Matcher, type Rule } from '@pact-foundation/pact';
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

/** Some of the keys of the app's type and no other: the pact cannot invent a field. */
export type Body<T> = { [K in keyof T]?: unknown };

/** Site-absolute paths or absolute URLs: the app puts them into `src` and `href` as they are. */
export const URL_PATTERN = /^(\/|https?:\/\/)\S+$/;
/** ISO 8601 with an offset; fractions of a second allowed (DRF sends microseconds). */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** `channel/post`, as Telegram's widget takes it. */
export const TELEGRAM_POST_PATTERN = /^[A-Za-z0-9_]+\/\d+$/;

const SAMPLE_URL = '/media/sample.svg';
const url = (value: string) => M.regex(URL_PATTERN, value);

const NULLABLE = 'berries:nullable';

/** `value`, and in the pact "null, or what `matcher` accepts". */
export interface Nullable {
  [NULLABLE]: Matcher<unknown>;
  value: unknown;
}

export const nullable = (value: unknown, matcher: Matcher<unknown>): Nullable => ({
  [NULLABLE]: matcher,
  value,
});

const isNullable = (node: unknown): node is Nullable =>
  typeof node === 'object' && node !== null && NULLABLE in node;

/** A matching rule as the pact file writes it: `{match: "number"}`, `{match: "null"}`, … */
export type FileRule = Record<string, unknown> & { match: string };

export interface NullableRules {
  /** The body with every `nullable` replaced by its example value. */
  body: unknown;
  /** JSON path (as Pact writes it: `$[*].price`) to the rules of which one must hold. */
  rules: Record<string, FileRule[]>;
}

function fileRule(matcher: Matcher<unknown>): FileRule {
  const rule: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(matcher)) {
    if (key === 'pact:matcher:type') rule.match = value;
    else if (key !== 'value' && key !== 'pact:generator:type') rule[key] = value;
  }
  return rule as FileRule;
}

const member = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}['${key}']`;

/**
 * Takes the `nullable` fields out of a body: Pact's matchers of a body all must hold, and
 * "either" rules (`combine: OR`) are written as the pact's own matching rules instead.
 */
export function nullableRules(body: unknown): NullableRules {
  const rules: Record<string, FileRule[]> = {};
  const walk = (node: unknown, path: string): unknown => {
    if (isNullable(node)) {
      rules[path] = [fileRule(node[NULLABLE]), { match: 'null' }];
      return node.value;
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${path}[${index}]`));
    if (typeof node !== 'object' || node === null) return node;
    const object = node as Record<string, unknown>;
    const type = object['pact:matcher:type'];
    if (type === undefined) {
      return Object.fromEntries(
        Object.entries(object).map(([key, value]) => [key, walk(value, member(path, key))]),
      );
    }
    // eachLike and friends: one template for every element.
    if (type === 'type' && Array.isArray(object.value)) {
      return { ...object, value: object.value.map((item) => walk(item, `${path}[*]`)) };
    }
    // eachKeyLike: one template for every value of the object.
    if (type === 'values' && typeof object.value === 'object' && object.value !== null) {
      const values = Object.entries(object.value).map(([key, value]) => [
        key,
        walk(value, `${path}.*`),
      ]);
      return { ...object, value: Object.fromEntries(values) };
    }
    if (JSON.stringify(object).includes(NULLABLE)) {
      throw new Error(`nullable() inside a ${String(type)} matcher at ${path} is not supported`);
    }
    return object;
  };
  return { body: walk(body, '$'), rules };
}

export function productBody(product: Product): Body<Product> {
  return {
    id: M.integer(product.id),
    name: M.string(product.name),
    image: nullable(product.image, url(SAMPLE_URL)),
    unit: M.string(product.unit),
    unit_step: nullable(product.unit_step, M.number(0.1)),
    price: nullable(product.price, M.number(100)),
    rest: M.number(product.rest),
    available: M.boolean(product.available),
  };
}

export function sectionRefBody(section: SectionRef): Body<SectionRef> {
  return {
    id: M.integer(section.id),
    name: M.string(section.name),
    image: nullable(section.image, url(SAMPLE_URL)),
  };
}

/**
 * A list like the example, for the list an interaction is about: at least one element, each
 * with the fields the app reads; or, for an empty example, exactly `[]`, which neither `null`
 * nor a missing key matches (the app reads `.length`).
 */
function listOf<T>(items: readonly T[], body: (item: T) => unknown): unknown {
  const [first] = items;
  return first === undefined ? [] : M.eachLike(body(first));
}

/** A list inside an element of another list: the other rows may have none. */
function anyListOf<T>(items: readonly T[], body: (item: T) => unknown): unknown {
  const [first] = items;
  return first === undefined ? [] : M.atLeastLike(body(first), 0, 1);
}

/** section_retrieve: the page shows the name, the child sections and the products. */
export function sectionBody(section: Section): Body<Section> {
  return {
    name: M.string(section.name),
    children: listOf(section.children, sectionRefBody),
    products: listOf(section.products, productBody),
  };
}

/** selection_retrieve: the page shows the name, the description, its sections and products. */
export function selectionBody(selection: Selection): Body<Selection> {
  return {
    name: M.string(selection.name),
    description: M.string(selection.description),
    sections: listOf(selection.sections, sectionRefBody),
    products: listOf(selection.products, productBody),
  };
}

/** An element of GET selections: its link needs the id, and another selection may be empty. */
export function listedSelectionBody(selection: Selection): Body<Selection> {
  return {
    id: M.integer(selection.id),
    name: M.string(selection.name),
    description: M.string(selection.description),
    sections: anyListOf(selection.sections, sectionRefBody),
    products: anyListOf(selection.products, productBody),
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

/** An order of order_history. */
export function orderBody(order: Order): Body<Order> {
  return {
    id: M.integer(order.id),
    created_ts: M.regex(TIMESTAMP_PATTERN, order.created_ts),
    status: M.integer(order.status),
    order_sum: M.number(order.order_sum),
    items: anyListOf(order.items, orderItemBody),
  };
}

/**
 * order_commit's answer: the basket drops the lines the order took, by their product ids (the
 * lines it did not take, out of sale, stay).
 */
export function placedOrderBody(order: Order): Body<Order> {
  return {
    items: listOf(order.items, (item) => ({
      product: { id: M.integer(item.product.id) },
    })),
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
    image: nullable(slide.image, url(SAMPLE_URL)),
    background: M.string(slide.background),
    text_color: M.string(slide.text_color),
  };
}

export const newsBody = (item: NewsItem): Body<NewsItem> => ({
  data_telegram_post: M.regex(TELEGRAM_POST_PATTERN, item.data_telegram_post),
});

/** user/me/: the menu greets the visitor by name, or by login when the names are blank. */
export function userBody(user: User): Body<User> {
  return {
    username: M.string(user.username),
    first_name: M.string(user.first_name),
    last_name: M.string(user.last_name),
  };
}

/**
 * DRF's field errors of a 400, `{field: ["message", …]}`, where the app shows the message: under
 * the phone field, in the basket's notice.
 */
export const fieldErrorsBody = (field: string, message: string) => ({
  [field]: M.eachLike(M.string(message)),
});
