// The provider states of the pact: their names with {placeholders}, the params each carries, and
// what a backend must set up for it. contracts/README.md lists the same table for backend
// developers (a test keeps the two in step), and the stub's /__control/state understands every
// one of them.
export const STATES = {
  homeProduct: 'the home page lists product {id}',
  product: 'product {id} exists',
  productWithNulls: 'product {id} has no image, price or unit step',
  noProduct: 'product {id} does not exist',
  productFound: 'a search for {q} finds a product named {name}',
  noProductMatches: 'no product matches {q}',
  homeSection: 'the home page lists section {id}',
  rootSection: 'section {id} is a root section',
  section: 'section {id} exists',
  emptySection: 'section {id} is empty',
  noSection: 'section {id} does not exist',
  sectionFound: 'a search for {q} finds a section named {name}',
  noSectionMatches: 'no section matches {q}',
  selection: 'selection {id} exists',
  emptySelection: 'selection {id} is empty',
  noSelection: 'selection {id} does not exist',
  emptyBasket: 'the basket is empty',
  basketLine: 'the basket holds product {id} with amount {amount}',
  orders: 'the visitor has {n} orders',
  placedAttempt:
    "the visitor's checkout with Idempotency-Key {key} placed an order of product {id}",
  otherVisitorAttempt:
    "another visitor's checkout with Idempotency-Key {key} placed an order of product {id}",
  refusedAttempt: "the visitor's checkout with Idempotency-Key {key} was refused for its phone",
  attemptInFlight: "the visitor's checkout with Idempotency-Key {key} is being placed",
  user: 'a user {username} with password {password} exists',
  userToken: 'the token {token} belongs to user {username}',
  revokedToken: 'the token {token} is revoked',
  policy: 'the privacy policy is published',
  slides: 'the carousel has slides',
  news: 'the news channel has posts',
} as const;

export type StateName = (typeof STATES)[keyof typeof STATES];

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface Given {
  name: StateName;
  params?: { [key: string]: Json };
}

/** The `{placeholders}` of a state name: the params it must carry. */
export function placeholders(name: string): string[] {
  return [...name.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}
