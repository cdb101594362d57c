// State set-up for tests and for a Pact verifier (POST /__control/state). Two forms, combinable:
//   structured: { reset?, basket?, orders?, user?, revoke?, product? }
//   named:      { state: "the basket holds product 7 with amount 1.5", params?: {...}, action? }
// A named state's {placeholders} are read from the text; `params` override them.
import { setLine } from './baskets.ts';
import { nowIso, shopDaysAgo, shopIso } from './clock.ts';
import type { StubContext } from './context.ts';
import type { StoredOrder, StoredUser, StubData } from './db.ts';
import { DEMO_ORDERS, DEMO_USER } from './fixtures/users.ts';
import { HttpError } from './http.ts';
import { lineTotal, round2, roundAmount } from './numbers.ts';
import { hashPassword } from './passwords.ts';
import { tokenFor } from './routes/auth.ts';
import { isSessionKey, sessionOwner, userOwner } from './session.ts';
import { isRecord } from './validation.ts';

export interface StateResult {
  applied: string[];
  owner?: string;
  user?: { id: number; username: string };
  token?: string;
}

type Params = Record<string, unknown>;

const fail = (detail: string): HttpError => new HttpError(400, { detail });

function text(params: Params, key: string, required: true): string;
function text(params: Params, key: string, required?: false): string | undefined;
function text(params: Params, key: string, required = false): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) {
    if (required) throw fail(`${key}: обязательное поле`);
    return undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number')
    throw fail(`${key}: ожидается строка`);
  return String(value);
}

function number(params: Params, key: string, required: true): number;
function number(params: Params, key: string, required?: false): number | undefined;
function number(params: Params, key: string, required = false): number | undefined {
  const value = params[key];
  if (value === undefined || value === null) {
    if (required) throw fail(`${key}: обязательное поле`);
    return undefined;
  }
  const parsed = typeof value === 'string' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) throw fail(`${key}: ожидается число`);
  return parsed;
}

function record(value: unknown, what: string): Params {
  if (!isRecord(value)) throw fail(`${what}: ожидается объект`);
  return value;
}

function findUser(data: StubData, ref: string): StoredUser {
  const user = data.users.find(
    (candidate) => candidate.username === ref || String(candidate.id) === ref,
  );
  if (!user) throw fail(`Нет пользователя ${ref}`);
  return user;
}

/**
 * `session:{sessionid}` or `user:{username or id}`. Without one: the fixed session when the
 * settings have it (a verifier sends no cookies), else the demo user.
 */
export function resolveOwner(ctx: StubContext, owner: string | undefined): string {
  if (owner === undefined) {
    const fixed = ctx.settings.fixedSession;
    return fixed ? sessionOwner(fixed) : userOwner(DEMO_USER);
  }
  const [kind, ...rest] = owner.split(':');
  const ref = rest.join(':');
  if (kind === 'session' && isSessionKey(ref)) return sessionOwner(ref);
  if (kind === 'user') return userOwner(findUser(ctx.store.data, ref));
  throw fail('owner: ожидается "session:{sessionid}" или "user:{username}"');
}

function setBasket(ctx: StubContext, spec: Params): string {
  const data = ctx.store.data;
  const owner = resolveOwner(ctx, text(spec, 'owner'));
  const lines = record(spec.lines ?? {}, 'lines');
  delete data.baskets[owner];
  for (const [id, amount] of Object.entries(lines)) {
    if (!data.products.some((product) => String(product.id) === id)) throw fail(`Нет товара ${id}`);
    if (typeof amount !== 'number' || amount < 0) throw fail(`lines.${id}: ожидается число >= 0`);
    setLine(data, owner, Number(id), roundAmount(amount));
  }
  return owner;
}

/** Keeps the newest `count` orders of the owner, or adds older ones until there are `count`. */
function setOrderCount(ctx: StubContext, spec: Params): string {
  const data = ctx.store.data;
  const owner = resolveOwner(ctx, text(spec, 'owner'));
  const count = number(spec, 'count', true);
  if (!Number.isInteger(count) || count < 0) throw fail('count: ожидается целое число >= 0');
  const own = data.orders
    .filter((order) => order.owner === owner)
    .sort((a, b) => Date.parse(b.created_ts) - Date.parse(a.created_ts));
  const drop = new Set(own.slice(count));
  data.orders = data.orders.filter((order) => !drop.has(order));
  const last = own.at(-1);
  let oldest = last ? new Date(last.created_ts) : new Date();
  if (Number.isNaN(oldest.getTime())) oldest = new Date();
  for (let index = own.length; index < count; index++) {
    const template = DEMO_ORDERS[index % DEMO_ORDERS.length] ?? DEMO_ORDERS[0];
    if (!template) break;
    const items = template.lines.flatMap(([productId, amount]) => {
      const product = data.products.find((candidate) => candidate.id === productId);
      if (!product || product.price === null) return [];
      data.counters.order_item += 1;
      return [
        {
          id: data.counters.order_item,
          amount,
          price: product.price,
          product: { id: product.id, name: product.name, unit: product.unit },
        },
      ];
    });
    oldest = shopDaysAgo(oldest, 7, template.time);
    data.counters.order += 1;
    const order: StoredOrder = {
      id: data.counters.order,
      created_ts: shopIso(oldest),
      status: template.status,
      order_sum: round2(items.reduce((sum, item) => sum + lineTotal(item.amount, item.price), 0)),
      items,
      owner,
      phone: '+79161234567',
      comment: template.comment,
      delivery: template.delivery,
      send_accept: false,
    };
    data.orders.push(order);
  }
  return owner;
}

/** Creates or updates a user; `token` (a key, or true for any) also gives them a token. */
function setUser(ctx: StubContext, spec: Params, result: StateResult): void {
  const data = ctx.store.data;
  const username = text(spec, 'username', true);
  const password = text(spec, 'password');
  let user = data.users.find((candidate) => candidate.username === username);
  if (!user) {
    if (password === undefined) throw fail('password: обязательное поле для нового пользователя');
    data.counters.user += 1;
    user = {
      id: data.counters.user,
      username,
      password: hashPassword(password),
      first_name: '',
      last_name: '',
      email: '',
    };
    data.users.push(user);
  } else if (password !== undefined) {
    user.password = hashPassword(password);
  }
  for (const key of ['first_name', 'last_name', 'email'] as const) {
    const value = text(spec, key);
    if (value !== undefined) user[key] = value;
  }
  result.user = { id: user.id, username: user.username };
  const token = spec.token;
  if (typeof token === 'string' && token) {
    data.tokens = data.tokens.filter((candidate) => candidate.key !== token);
    for (const candidate of data.tokens)
      if (candidate.user_id === user.id) candidate.revoked = true;
    data.tokens.push({ key: token, user_id: user.id, created_ts: nowIso(), revoked: false });
    result.token = token;
  } else if (token === true) {
    result.token = tokenFor(data, user);
  }
}

/** Revokes a token; answers false when there is no such token. */
export function revokeToken(data: StubData, key: string): boolean {
  const token = data.tokens.find((candidate) => candidate.key === key);
  if (!token) return false;
  token.revoked = true;
  return true;
}

function setProduct(ctx: StubContext, spec: Params): void {
  const id = number(spec, 'id', true);
  const product = ctx.store.data.products.find((candidate) => candidate.id === id);
  if (!product) throw fail(`Нет товара ${id}`);
  const rest = number(spec, 'rest');
  if (rest !== undefined) {
    product.rest = rest;
    product.available = rest > 0;
  }
  if (typeof spec.available === 'boolean') product.available = spec.available;
  if (spec.price === null) product.price = null;
  else {
    const price = number(spec, 'price');
    if (price !== undefined) product.price = price;
  }
}

/** Named provider states: the text with {placeholders} and what each does. */
const NAMED: [template: string, apply: (ctx: StubContext, p: Params, r: StateResult) => void][] = [
  ['the seed data', (ctx) => ctx.store.reset()],
  [
    'the basket is empty',
    (ctx, p, r) => {
      r.owner = setBasket(ctx, { owner: p.owner });
    },
  ],
  [
    'the basket holds product {id} with amount {amount}',
    (ctx, p, r) => {
      const id = number(p, 'id', true);
      r.owner = setBasket(ctx, { owner: p.owner, lines: { [id]: number(p, 'amount', true) } });
    },
  ],
  [
    'the demo user has {count} orders',
    (ctx, p, r) => {
      r.owner = setOrderCount(ctx, { owner: `user:${DEMO_USER.username}`, count: p.count });
    },
  ],
  ['user {username} exists with password {password}', (ctx, p, r) => setUser(ctx, p, r)],
  ['user {username} has token {token}', (ctx, p, r) => setUser(ctx, p, r)],
  [
    'token {token} is revoked',
    (ctx, p) => {
      const key = text(p, 'token', true);
      if (!revokeToken(ctx.store.data, key)) {
        ctx.store.data.tokens.push({
          key,
          user_id: DEMO_USER.id,
          created_ts: nowIso(),
          revoked: true,
        });
      }
    },
  ],
  ['product {id} is sold out', (ctx, p) => setProduct(ctx, { id: p.id, rest: 0 })],
  [
    'product {id} exists',
    (ctx, p) => {
      const id = number(p, 'id', true);
      if (!ctx.store.data.products.some((product) => product.id === id))
        throw fail(`Нет товара ${id}`);
    },
  ],
  [
    'product {id} does not exist',
    (ctx, p) => {
      const id = number(p, 'id', true);
      if (ctx.store.data.products.some((product) => product.id === id))
        throw fail(`Товар ${id} есть`);
    },
  ],
  [
    'section {id} exists',
    (ctx, p) => {
      const id = number(p, 'id', true);
      if (!ctx.store.data.sections.some((section) => section.id === id))
        throw fail(`Нет раздела ${id}`);
    },
  ],
  [
    'selection {id} exists',
    (ctx, p) => {
      const id = number(p, 'id', true);
      if (!ctx.store.data.selections.some((selection) => selection.id === id))
        throw fail(`Нет подборки ${id}`);
    },
  ],
];

export const NAMED_STATES = NAMED.map(([template]) => template);

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      return name ? `(?<${name}>.+?)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`, 'i');
}

const PATTERNS = NAMED.map(([template, apply]) => ({ pattern: templatePattern(template), apply }));

function applyNamed(ctx: StubContext, state: string, params: Params, result: StateResult): void {
  for (const { pattern, apply } of PATTERNS) {
    const match = pattern.exec(state.trim());
    if (!match) continue;
    const fromText: Params = {};
    for (const [key, value] of Object.entries(match.groups ?? {})) {
      fromText[key] = /^-?\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : value.replace(/^["«']|["»']$/g, '');
    }
    apply(ctx, { ...fromText, ...params }, result);
    result.applied.push(state);
    return;
  }
  throw new HttpError(400, { detail: `Неизвестное состояние: ${state}` });
}

export function applyState(ctx: StubContext, body: unknown): StateResult {
  const spec = record(body ?? {}, 'body');
  const result: StateResult = { applied: [] };
  if (spec.action === 'teardown') return result;
  if (spec.reset === true) {
    ctx.store.reset();
    result.applied.push('reset');
  }
  if (spec.state !== undefined) {
    if (typeof spec.state !== 'string') throw fail('state: ожидается строка');
    applyNamed(
      ctx,
      spec.state,
      spec.params === undefined ? {} : record(spec.params, 'params'),
      result,
    );
  }
  if (spec.basket !== undefined) {
    result.owner = setBasket(ctx, record(spec.basket, 'basket'));
    result.applied.push('basket');
  }
  if (spec.orders !== undefined) {
    result.owner = setOrderCount(ctx, record(spec.orders, 'orders'));
    result.applied.push('orders');
  }
  if (spec.user !== undefined) {
    setUser(ctx, record(spec.user, 'user'), result);
    result.applied.push('user');
  }
  if (spec.revoke !== undefined) {
    const key =
      typeof spec.revoke === 'string'
        ? spec.revoke
        : text(record(spec.revoke, 'revoke'), 'token', true);
    if (!revokeToken(ctx.store.data, key)) throw fail('Нет такого токена');
    result.applied.push('revoke');
  }
  if (spec.product !== undefined) {
    setProduct(ctx, record(spec.product, 'product'));
    result.applied.push('product');
  }
  ctx.store.save();
  return result;
}
