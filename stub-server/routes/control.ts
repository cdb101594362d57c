// /__control: test-only endpoints (mounted only with `controls: true`). No CSRF here.
import express, { type Request, type Router } from 'express';
import jsonServer from 'json-server';
import type { StubContext } from '../context.ts';
import type { StoredProduct, StoredSection, StubData } from '../db.ts';
import { type FaultSpec, pathMatches } from '../faults.ts';
import { productImage } from '../fixtures/media-paths.ts';
import { apiErrors, apiNotFound, defineRoute, HttpError, pathId } from '../http.ts';
import { searchByName } from '../search.ts';
import { isSessionKey, parseCookies, randomKey, sessionOwner } from '../session.ts';
import {
  applyState,
  NAMED_STATES,
  resolveOwner,
  revokeToken,
  type StateResult,
} from '../states.ts';
import { setLine } from '../baskets.ts';
import type { OrderAttempts } from '../order-attempts.ts';
import { toOrder } from '../serializers.ts';
import { BAD_PHONE } from '../validation.ts';
import { placeOrder } from './orders.ts';
import { isRecord, objectBody } from '../validation.ts';

const fail = (detail: string): HttpError => new HttpError(400, { detail });

function faultSpec(body: unknown): FaultSpec {
  const data = objectBody(body);
  const { path, method, status, delay_ms, network_error, times, body: answer } = data;
  if (typeof path !== 'string' || !(pathMatches('/api', path) || pathMatches('/media', path)))
    throw fail('path: ожидается путь в /api или /media');
  const spec: FaultSpec = { path };
  if (method !== undefined) {
    if (typeof method !== 'string') throw fail('method: ожидается строка');
    spec.method = method.toUpperCase();
  }
  if (status !== undefined) {
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
      throw fail('status: ожидается код 200..599');
    spec.status = status;
  }
  if (answer !== undefined) {
    if (!isRecord(answer) && !Array.isArray(answer)) throw fail('body: ожидается JSON-объект');
    spec.body = answer;
  }
  if (delay_ms !== undefined) {
    if (typeof delay_ms !== 'number' || delay_ms < 0 || delay_ms > 120_000)
      throw fail('delay_ms: ожидается 0..120000');
    spec.delay_ms = delay_ms;
  }
  if (network_error !== undefined) {
    if (typeof network_error !== 'boolean') throw fail('network_error: ожидается boolean');
    spec.network_error = network_error;
  }
  if (times !== undefined) {
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1)
      throw fail('times: ожидается целое число >= 1');
    spec.times = times;
  }
  if (spec.status === undefined && !spec.delay_ms && !spec.network_error)
    throw fail('Нужен status, delay_ms или network_error');
  return spec;
}

// ---------------------------------------------------------------------------------------------
// The provider states of the pact (contracts/support/states.ts, contracts/README.md), so that the
// Pact verifier drives the stub: POST /__control/state with Pact's {state, params, action}, plus
// `reset: true` to start from the seed. Each state makes its sentence true ("make it so"), so a
// run without resets passes too. Basket and order states act on `owner` (body or params), else on
// the session of the request's `sessionid` cookie (the verifier sends the same one with every
// request), else as the other named states do.
//
// A state changes only what its sentence is about: the pact lets every other row of a list be as
// the seed has it (a product without a photo or a price, an empty selection).
// ---------------------------------------------------------------------------------------------

interface PactStateContext {
  data: StubData;
  params: Record<string, unknown>;
  owner: string | undefined;
  /** The stub's own forms (states.ts): basket, orders, user, named states. */
  apply: (body: Record<string, unknown>) => void;
  /** The checkout attempts' keys and first answers (order_commit's Idempotency-Key). */
  attempts: OrderAttempts;
  /** The owner a basket or order state is about, as the stub names it (`session:…`). */
  visitor: () => string;
}

type PactStateHandler = (state: string, context: PactStateContext) => void;

const stateFail = (state: string, detail: string): HttpError =>
  new HttpError(400, { detail: `${state}: ${detail}` });

function idParam(state: string, params: Record<string, unknown>, key = 'id'): number {
  const value = Number(params[key]);
  if (params[key] === undefined || !Number.isSafeInteger(value))
    throw stateFail(state, `${key}: ожидается целое число`);
  return value;
}

function textParam(state: string, params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string' || !value) throw stateFail(state, `${key}: ожидается строка`);
  return value;
}

/** Gives a product every field, as the interactions' example product has them. */
function fillNullable(product: StoredProduct): void {
  product.image ??= productImage(product.id);
  product.price ??= 100;
  product.unit_step ??= product.unit === 'шт' ? 1 : 0.1;
}

function productOrFail(state: string, data: StubData, id: number): StoredProduct {
  const product = data.products.find((candidate) => candidate.id === id);
  if (!product) throw stateFail(state, `нет товара ${id}`);
  return product;
}

/** Every field set, available, at least 10 in stock: any amount up to the limit of 10 is valid. */
function fullProduct(state: string, data: StubData, id: number): StoredProduct {
  const product = productOrFail(state, data, id);
  fillNullable(product);
  product.rest = Math.max(product.rest, 10);
  product.available = true;
  return product;
}

function sectionOrFail(state: string, data: StubData, id: number): StoredSection {
  const section = data.sections.find((candidate) => candidate.id === id);
  if (!section) throw stateFail(state, `нет раздела ${id}`);
  return section;
}

function absent(state: string, items: { id: number }[], id: number): void {
  if (items.some((item) => item.id === id)) throw stateFail(state, `${id} есть в данных`);
}

/** Someone else, whose checkout keys must never answer the verifier's visitor. */
const OTHER_VISITOR = 'session:pactothervisitorforcontracts0002';

/** An order of product `id` placed for `owner`, as order_commit answers it (201). */
function placedOrder(state: string, { data, params }: PactStateContext, owner: string) {
  const id = idParam(state, params);
  fullProduct(state, data, id);
  // Its basket held that one line, and is empty now.
  delete data.baskets[owner];
  setLine(data, owner, id, 1.5);
  const fields = { phone: '+79161234567', comment: '', delivery: '1', send_accept: false } as const;
  return { status: 201, body: toOrder(placeOrder(data, owner, fields)) };
}

/** The first answer of `owner`'s checkout with `key`, kept as if it had just been given. */
function keptAnswer(
  { attempts }: PactStateContext,
  owner: string,
  key: string,
  answer: { status: number; body: unknown },
): void {
  attempts.release(owner, key);
  attempts.claim(owner, key);
  attempts.finish(owner, key, answer);
}

const PACT_STATES = new Map<string, PactStateHandler>([
  [
    'the home page lists product {id}',
    (state, { data, params }) => {
      const id = idParam(state, params);
      fullProduct(state, data, id);
      data.home.product_ids = [id, ...data.home.product_ids.filter((other) => other !== id)];
    },
  ],
  [
    'product {id} exists',
    (state, { data, params }) => void fullProduct(state, data, idParam(state, params)),
  ],
  [
    'product {id} has no image, price or unit step',
    (state, { data, params }) => {
      const product = productOrFail(state, data, idParam(state, params));
      Object.assign(product, { image: null, price: null, unit_step: null });
    },
  ],
  [
    'product {id} does not exist',
    (state, { data, params }) => absent(state, data.products, idParam(state, params)),
  ],
  [
    'a search for {q} finds a product named {name}',
    (state, { data, params }) => {
      const name = textParam(state, params, 'name');
      const found = searchByName(data.products, textParam(state, params, 'q'));
      if (!found.some((product) => product.name === name))
        throw stateFail(state, `поиск не находит товар «${name}»`);
    },
  ],
  [
    'no product matches {q}',
    (state, { data, params }) => {
      const found = searchByName(data.products, textParam(state, params, 'q')).length;
      if (found > 0) throw stateFail(state, `находится товаров: ${found}`);
    },
  ],
  [
    'the home page lists section {id}',
    (state, { data, params }) => {
      const id = idParam(state, params);
      sectionOrFail(state, data, id);
      data.home.section_ids = [id, ...data.home.section_ids.filter((other) => other !== id)];
    },
  ],
  [
    'section {id} is a root section',
    (state, { data, params }) => {
      sectionOrFail(state, data, idParam(state, params)).parent_id = null;
    },
  ],
  [
    'section {id} exists',
    (state, { data, params }) => {
      const id = idParam(state, params);
      sectionOrFail(state, data, id);
      const children = data.sections.filter((section) => section.parent_id === id);
      const products = data.products.filter((product) => product.section_id === id);
      if (children.length === 0 || products.length === 0)
        throw stateFail(state, `в разделе ${id} нет подразделов или товаров`);
    },
  ],
  [
    'section {id} is empty',
    (state, { data, params }) => {
      const id = idParam(state, params);
      sectionOrFail(state, data, id);
      // Moving the catalogue about would break other states: the seed has section 22 empty.
      const children = data.sections.filter((section) => section.parent_id === id).length;
      const products = data.products.filter((product) => product.section_id === id).length;
      if (children > 0 || products > 0)
        throw stateFail(state, `в разделе ${id} подразделов: ${children}, товаров: ${products}`);
    },
  ],
  [
    'section {id} does not exist',
    (state, { data, params }) => absent(state, data.sections, idParam(state, params)),
  ],
  [
    'a search for {q} finds a section named {name}',
    (state, { data, params }) => {
      const name = textParam(state, params, 'name');
      const found = searchByName(data.sections, textParam(state, params, 'q'));
      if (!found.some((section) => section.name === name))
        throw stateFail(state, `поиск не находит раздел «${name}»`);
    },
  ],
  [
    'no section matches {q}',
    (state, { data, params }) => {
      const found = searchByName(data.sections, textParam(state, params, 'q')).length;
      if (found > 0) throw stateFail(state, `находится разделов: ${found}`);
    },
  ],
  [
    'selection {id} exists',
    (state, { data, params }) => {
      const id = idParam(state, params);
      const selection = data.selections.find((candidate) => candidate.id === id);
      if (!selection) throw stateFail(state, `нет подборки ${id}`);
      if (selection.section_ids.length === 0 || selection.product_ids.length === 0)
        throw stateFail(state, `в подборке ${id} нет разделов или товаров`);
    },
  ],
  [
    'selection {id} is empty',
    (state, { data, params }) => {
      const id = idParam(state, params);
      const selection = data.selections.find((candidate) => candidate.id === id);
      if (selection) Object.assign(selection, { section_ids: [], product_ids: [] });
      else
        data.selections.push({
          id,
          name: 'Скоро в сезон',
          description: 'Подборку наполним, когда созреет урожай.',
          section_ids: [],
          product_ids: [],
        });
    },
  ],
  [
    'selection {id} does not exist',
    (state, { data, params }) => absent(state, data.selections, idParam(state, params)),
  ],
  ['the basket is empty', (_state, { owner, apply }) => apply({ basket: { owner, lines: {} } })],
  [
    'the basket holds product {id} with amount {amount}',
    (state, { data, params, owner, apply }) => {
      const id = idParam(state, params);
      fullProduct(state, data, id);
      apply({ basket: { owner, lines: { [id]: Number(params.amount) } } });
    },
  ],
  [
    'the visitor has {n} orders',
    (state, { params, owner, apply }) =>
      apply({ orders: { owner, count: idParam(state, params, 'n') } }),
  ],
  [
    "the visitor's checkout with Idempotency-Key {key} placed an order of product {id}",
    (state, context) => {
      const key = textParam(state, context.params, 'key');
      const owner = context.visitor();
      keptAnswer(context, owner, key, placedOrder(state, context, owner));
    },
  ],
  [
    "another visitor's checkout with Idempotency-Key {key} placed an order of product {id}",
    (state, context) => {
      const key = textParam(state, context.params, 'key');
      keptAnswer(context, OTHER_VISITOR, key, placedOrder(state, context, OTHER_VISITOR));
    },
  ],
  [
    "the visitor's checkout with Idempotency-Key {key} was refused for its phone",
    (state, context) => {
      const answer = { status: 400, body: { phone: [BAD_PHONE] } };
      keptAnswer(context, context.visitor(), textParam(state, context.params, 'key'), answer);
    },
  ],
  [
    "the visitor's checkout with Idempotency-Key {key} is being placed",
    (state, { params, attempts, visitor }) => {
      const key = textParam(state, params, 'key');
      const owner = visitor();
      attempts.release(owner, key);
      attempts.claim(owner, key); // started now, no answer yet
    },
  ],
  [
    'a user {username} with password {password} exists',
    (state, { params, apply }) =>
      apply({
        user: {
          username: textParam(state, params, 'username'),
          password: textParam(state, params, 'password'),
        },
      }),
  ],
  [
    'the token {token} belongs to user {username}',
    (state, { data, params, apply }) => {
      const username = textParam(state, params, 'username');
      const token = textParam(state, params, 'token');
      const known = data.users.some((user) => user.username === username);
      apply({ user: { username, token, ...(known ? {} : { password: randomKey() }) } });
    },
  ],
  [
    'the token {token} is revoked',
    (state, { params, apply }) =>
      apply({
        state: 'token {token} is revoked',
        params: { token: textParam(state, params, 'token') },
      }),
  ],
  [
    'the privacy policy is published',
    (state, { data }) => {
      if (!data.policy.file) throw stateFail(state, 'нет файла политики');
    },
  ],
  [
    'the carousel has slides',
    (state, { data }) => {
      if (data.slides.length === 0) throw stateFail(state, 'нет слайдов');
    },
  ],
  [
    'the news channel has posts',
    (state, { data }) => {
      if (data.news.length === 0) throw stateFail(state, 'нет новостей');
    },
  ],
]);

export const PACT_STATE_NAMES = [...PACT_STATES.keys()];

/** The session of the state request's `sessionid` cookie. */
function cookieOwner(req: Request): string | undefined {
  const session = parseCookies(req.headers.cookie).get('sessionid');
  return session && isSessionKey(session) ? sessionOwner(session) : undefined;
}

/** Applies a pact state; null when the body names none (states.ts handles the rest). */
function applyPactState(ctx: StubContext, req: Request): StateResult | null {
  const body: unknown = req.body;
  if (!isRecord(body) || typeof body.state !== 'string') return null;
  const state = body.state.trim();
  const handler = PACT_STATES.get(state);
  if (!handler) return null;
  const result: StateResult = { applied: [] };
  if (body.action === 'teardown') return result;
  if (body.params !== undefined && !isRecord(body.params)) throw fail('params: ожидается объект');
  const params = body.params ?? {};
  if (body.reset === true) {
    ctx.store.reset();
    result.applied.push('reset');
  }
  const owner = [params.owner, body.owner].find((value) => typeof value === 'string');
  handler(state, {
    data: ctx.store.data,
    params,
    owner: typeof owner === 'string' ? owner : cookieOwner(req),
    apply: (structured) => {
      const applied = applyState(ctx, structured);
      if (applied.owner) result.owner = applied.owner;
    },
    attempts: ctx.attempts,
    visitor: () => resolveOwner(ctx, typeof owner === 'string' ? owner : cookieOwner(req)),
  });
  result.applied.push(state);
  ctx.store.save();
  return result;
}

/** The longest product name the state control takes (the XSS payloads are far shorter). */
const MAX_PRODUCT_NAME = 200;

/**
 * `product: {id, name}` in a structured state: a product's name, e.g. a hostile one for the
 * shop's XSS tests (states.ts sets the stock and the price only). Checked before anything is
 * applied, so a bad name changes nothing.
 */
function productRename(body: unknown): { id: number; name: string } | null {
  if (!isRecord(body) || !isRecord(body.product) || body.product.name === undefined) return null;
  const { id, name } = body.product;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_PRODUCT_NAME)
    throw fail(`product.name: ожидается непустая строка до ${MAX_PRODUCT_NAME} символов`);
  if (typeof id !== 'number' || !Number.isSafeInteger(id))
    throw fail('product.id: ожидается число');
  return { id, name };
}

function renameProduct(ctx: StubContext, { id, name }: { id: number; name: string }): void {
  const product = ctx.store.data.products.find((candidate) => candidate.id === id);
  if (!product) throw fail(`Нет товара ${id}`);
  product.name = name;
  ctx.store.save();
}

export function controlRoutes(ctx: StubContext): Router {
  const { store, faults, settings, attempts } = ctx;
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(jsonServer.bodyParser);

  defineRoute(router, '/reset', {
    post: async (_req, res) => {
      faults.clear();
      attempts.clear();
      await store.reset();
      res.json({ reset: true });
    },
  });
  defineRoute(router, '/faults', {
    get: (_req, res) => {
      res.json(faults.list());
    },
    post: (req, res) => {
      res.status(201).json(faults.add(faultSpec(req.body)));
    },
    delete: (_req, res) => {
      faults.clear();
      res.status(204).end();
    },
  });
  defineRoute(router, '/faults/:id(\\d+)', {
    delete: (req, res) => {
      if (!faults.remove(pathId(req))) throw new HttpError(404, { detail: 'Не найдено.' });
      res.status(204).end();
    },
  });
  defineRoute(router, '/revoke', {
    post: async (req, res) => {
      const { token } = objectBody(req.body);
      if (typeof token !== 'string' || !revokeToken(store.data, token))
        throw new HttpError(404, { detail: 'Нет такого токена.' });
      await store.save();
      res.json({ revoked: token });
    },
  });
  defineRoute(router, '/settings', {
    get: (_req, res) => {
      res.json(settings);
    },
    post: (req, res) => {
      const { csrf, fixed_session } = objectBody(req.body);
      if (csrf !== undefined) {
        if (typeof csrf !== 'boolean') throw fail('csrf: ожидается boolean');
        settings.csrf = csrf;
      }
      if (fixed_session !== undefined) {
        if (
          fixed_session !== null &&
          (typeof fixed_session !== 'string' || !isSessionKey(fixed_session))
        )
          throw fail('fixed_session: 8..64 латинских букв и цифр или null');
        settings.fixedSession = fixed_session;
      }
      res.json(settings);
    },
  });
  defineRoute(router, '/state', {
    get: (_req, res) => {
      const data = store.data;
      res.json({
        named_states: NAMED_STATES,
        pact_states: PACT_STATE_NAMES,
        users: data.users.map(({ password: _password, ...user }) => user),
        tokens: data.tokens,
        sessions: data.sessions,
        baskets: data.baskets,
        orders: data.orders.map(({ id, owner, status, created_ts, order_sum }) => ({
          id,
          owner,
          status,
          created_ts,
          order_sum,
        })),
        settings,
        faults: faults.list(),
      });
    },
    post: async (req, res) => {
      const rename = productRename(req.body);
      const result = applyPactState(ctx, req) ?? applyState(ctx, req.body);
      // After the rest: a `reset: true` in the same body must not undo the new name.
      if (rename) {
        renameProduct(ctx, rename);
        result.applied.push('product.name');
      }
      await store.save();
      res.json(result);
    },
  });
  router.use(apiNotFound);
  router.use(apiErrors);
  return router;
}
