// Entities exactly as spec §3 names them. Where the spec does not show a shape, the choice is
// what a Django REST Framework backend would send, and it is written down here. The Pact file in
// contracts/pacts asks the real backend for the fields of these that the app reads.

/** Image URLs are site-absolute paths (e.g. `/media/catalog/strawberry.svg`) or absolute URLs. */
export type ImageUrl = string;

export interface Product {
  id: number;
  name: string;
  /** null when the product has no image: the app shows its placeholder. */
  image: ImageUrl | null;
  /** Free text; `шт` means pieces. */
  unit: string;
  /** Step for non-piece units; null means the default 0.1. Ignored for `шт`. */
  unit_step: number | null;
  /** Price per unit in roubles; null shows `Цена неизвестна`. */
  price: number | null;
  /** Stock quantity, in units. */
  rest: number;
  available: boolean;
}

/** A section as it appears inside lists and inside another section: no nested content. */
export interface SectionRef {
  id: number;
  name: string;
  image: ImageUrl | null;
}

/** A section as section_retrieve answers: its direct child sections and its products. */
export interface Section extends SectionRef {
  children: SectionRef[];
  products: Product[];
}

export interface Selection {
  id: number;
  name: string;
  description: string;
  sections: SectionRef[];
  products: Product[];
}

/** One breadcrumb; breadcrumb lists run from the root section down. */
export interface Crumb {
  id: number;
  name: string;
}

/**
 * section_breadcrumbs/{id}: the path from the root down to and including the section.
 * product_breadcrumbs/{id}: the path from the root down to the product's own section (the
 * product itself is not included; the page adds its name).
 */
export type Breadcrumbs = Crumb[];

export interface CarouselSlide {
  id: number;
  /** Multi-line; the app splits it into paragraphs on line breaks. */
  text: string;
  image: ImageUrl | null;
  /** Any CSS colour. */
  background: string;
  /** Any CSS colour. */
  text_color: string;
}

export interface BasketEntry {
  product: Product;
  amount: number;
}

/** GET basket: entries keyed by product id (JSON object keys are strings). */
export type Basket = Record<string, BasketEntry>;

/** Body of PUT basket/{id}. */
export interface BasketUpdate {
  amount: number;
}

/** total_price answers a bare JSON number: the basket's amount_sum in roubles. */
export type AmountSum = number;

export type OrderStatus = 0 | 1 | 2 | 3 | 4 | 5;

export interface OrderItem {
  id: number;
  amount: number;
  /** Unit price at the time of the order. */
  price: number;
  product: Pick<Product, 'id' | 'name' | 'unit'>;
}

export interface Order {
  id: number;
  /** ISO 8601 date-time with offset, e.g. `2026-11-20T14:05:00+03:00`. */
  created_ts: string;
  status: OrderStatus;
  order_sum: number;
  items: OrderItem[];
}

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
export type OrderCommitResult = Order;

export interface NewsItem {
  /** `channel/postId`, as Telegram's widget takes it. */
  data_telegram_post: string;
}

export interface Policy {
  /** Link to the policy document (a PDF). */
  file: string;
}

export interface Credentials {
  username: string;
  password: string;
}

/** POST auth/token/ answers with the token to send as `Authorization: Token {token}`. */
export interface TokenResponse {
  token: string;
}

/** auth/user/me/. The spec shows no fields; these are Django's User fields a shop needs. */
export interface User {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
}

export type Theme = 'light' | 'dark';

/**
 * Error bodies, DRF style: `{detail}` for 401/403/404, `{field: [messages]}` for 400
 * (`non_field_errors` for errors of the whole request).
 */
export interface DetailError {
  detail: string;
}
export type FieldErrors = Record<string, string[]>;
