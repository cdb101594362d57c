// Entities exactly as spec §3 names them. Where the spec does not show a shape, the choice is
// what a Django REST Framework backend would send, and it is written down here. The Pact file in
// contracts/pacts asks the real backend for the fields of these that the app reads.
//
// What the backend answers is written once, as a valibot schema, and its type is derived from it:
// the shop's server checks each answer against it, or against the part of it the app reads,
// before a page or form uses it (src/api/answer-shapes.ts). What the app sends (bodies,
// credentials) is a plain type.
import * as v from 'valibot';

/** Image URLs are site-absolute paths (e.g. `/media/catalog/strawberry.svg`) or absolute URLs. */
export const ImageUrl = v.string();
export type ImageUrl = v.InferOutput<typeof ImageUrl>;

export const Product = v.object({
  id: v.number(),
  name: v.string(),
  /** null when the product has no image: the app shows its placeholder. */
  image: v.nullable(ImageUrl),
  /** Free text; `шт` means pieces. */
  unit: v.string(),
  /** Step for non-piece units; null means the default 0.1. Ignored for `шт`. */
  unit_step: v.nullable(v.number()),
  /** Price per unit in roubles; null shows `Цена неизвестна`. */
  price: v.nullable(v.number()),
  /** Stock quantity, in units. */
  rest: v.number(),
  available: v.boolean(),
});
export type Product = v.InferOutput<typeof Product>;

/** A section as it appears inside lists and inside another section: no nested content. */
export const SectionRef = v.object({
  id: v.number(),
  name: v.string(),
  image: v.nullable(ImageUrl),
});
export type SectionRef = v.InferOutput<typeof SectionRef>;

/** A section as section_retrieve answers: its direct child sections and its products. */
export const Section = v.object({
  ...SectionRef.entries,
  children: v.array(SectionRef),
  products: v.array(Product),
});
export type Section = v.InferOutput<typeof Section>;

export const Selection = v.object({
  id: v.number(),
  name: v.string(),
  description: v.string(),
  sections: v.array(SectionRef),
  products: v.array(Product),
});
export type Selection = v.InferOutput<typeof Selection>;

/** One breadcrumb; breadcrumb lists run from the root section down. */
export const Crumb = v.object({
  id: v.number(),
  name: v.string(),
});
export type Crumb = v.InferOutput<typeof Crumb>;

/**
 * section_breadcrumbs/{id}: the path from the root down to and including the section.
 * product_breadcrumbs/{id}: the path from the root down to the product's own section (the
 * product itself is not included; the page adds its name).
 */
export const Breadcrumbs = v.array(Crumb);
export type Breadcrumbs = v.InferOutput<typeof Breadcrumbs>;

export const CarouselSlide = v.object({
  id: v.number(),
  /** Multi-line; the app splits it into paragraphs on line breaks. */
  text: v.string(),
  image: v.nullable(ImageUrl),
  /** A CSS colour: #hex, rgb() or hsl() (src/lib/css-colour.ts); else the theme's show. */
  background: v.string(),
  /** As `background`. */
  text_color: v.string(),
});
export type CarouselSlide = v.InferOutput<typeof CarouselSlide>;

export const BasketEntry = v.object({
  product: Product,
  amount: v.number(),
});
export type BasketEntry = v.InferOutput<typeof BasketEntry>;

/** GET basket: entries keyed by product id (JSON object keys are strings). */
export const Basket = v.record(v.string(), BasketEntry);
export type Basket = v.InferOutput<typeof Basket>;

/** Body of PUT basket/{id}. */
export interface BasketUpdate {
  amount: number;
}

/** total_price answers a bare JSON number: the basket's amount_sum in roubles. */
export const AmountSum = v.number();
export type AmountSum = v.InferOutput<typeof AmountSum>;

/** The statuses the shop names (spec §4). */
export type OrderStatus = 0 | 1 | 2 | 3 | 4 | 5;

export const OrderItem = v.object({
  id: v.number(),
  amount: v.number(),
  /** Unit price at the time of the order. */
  price: v.number(),
  product: v.pick(Product, ['id', 'name', 'unit']),
});
export type OrderItem = v.InferOutput<typeof OrderItem>;

export const Order = v.object({
  id: v.number(),
  /** ISO 8601 date-time with offset, e.g. `2026-11-20T14:05:00+03:00`. */
  created_ts: v.string(),
  /** Any integer, as the pact says: a newer backend's status reads as «Статус N» (order-status.ts). */
  status: v.pipe(v.number(), v.integer()),
  order_sum: v.number(),
  items: v.array(OrderItem),
});
export type Order = v.InferOutput<typeof Order>;

/** '1' courier delivery, '2' pickup. */
export type Delivery = '1' | '2';

export interface OrderCommit {
  delivery: Delivery;
  policy_accept: boolean;
  send_accept: boolean;
  comment: string;
  phone: string;
}

/** order_commit answers 201 (or 200) with the created order; the basket reads its items. */
export const OrderCommitResult = Order;
export type OrderCommitResult = Order;

export const NewsItem = v.object({
  /** `channel/postId`, as Telegram's widget takes it. */
  data_telegram_post: v.string(),
});
export type NewsItem = v.InferOutput<typeof NewsItem>;

export const Policy = v.object({
  /** Link to the policy document (a PDF). */
  file: v.string(),
});
export type Policy = v.InferOutput<typeof Policy>;

export interface Credentials {
  username: string;
  password: string;
}

/** POST auth/token/ answers with the token to send as `Authorization: Token {token}`. */
export const TokenResponse = v.object({
  token: v.string(),
});
export type TokenResponse = v.InferOutput<typeof TokenResponse>;

/** auth/user/me/. The spec shows no fields; these are Django's User fields a shop needs. */
export const User = v.object({
  id: v.number(),
  username: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
});
export type User = v.InferOutput<typeof User>;

export type Theme = 'light' | 'dark';

/**
 * Error bodies, DRF style: `{detail}` for 401/403/404, `{field: [messages]}` for 400
 * (`non_field_errors` for errors of the whole request).
 */
export interface DetailError {
  detail: string;
}
export type FieldErrors = Record<string, string[]>;
