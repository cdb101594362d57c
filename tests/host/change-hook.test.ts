// The backend's change hook (host/backend/change-hook.ts): a signed, fresh, first delivery is taken
// and told on once; anything else is refused with the status the guide names, and nothing is
// renewed.
import { randomUUID } from 'node:crypto';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHANGE_HOOK_PATH,
  DELIVERY_HEADER,
  HOOK_LEEWAY_SECONDS,
  SIGNATURE_HEADER,
  changeHook,
  signHook,
} from '../../host/backend/change-hook.ts';
import type { Change } from '../../src/server-entry/changes.ts';
import { listen, type Listening } from './http-helpers.ts';

const SECRET = 'a-secret-the-backend-and-the-shop-share';
/** The shop's wall clock, in milliseconds: the test moves it. */
const STARTED = Date.parse('2026-06-01T09:00:00Z');
let clock = STARTED;
const seconds = () => Math.floor(clock / 1000);

let shop: Listening;
let taken: Change[] = [];

beforeAll(async () => {
  const app = express();
  app.use(changeHook({ secret: SECRET, accept: (change) => taken.push(change), now: () => clock }));
  shop = await listen(app);
});
afterAll(() => shop.close());
beforeEach(() => {
  taken = [];
  clock = STARTED + 60_000;
});

/** A hook's body as the backend writes it, with `fields` over the defaults. */
const hookBody = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ id: randomUUID(), sent_at: seconds(), products: [7], ...fields });

async function post(
  body: string,
  { secret = SECRET, headers = {} }: { secret?: string; headers?: Record<string, string> } = {},
) {
  const answer = await fetch(`${shop.url}${CHANGE_HOOK_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [SIGNATURE_HEADER]: signHook(secret, body),
      ...headers,
    },
    body,
  });
  return { status: answer.status, detail: ((await answer.json()) as { detail: string }).detail };
}

describe('the change hook takes', () => {
  it('a signed, fresh hook: 202, and the change is told on once', async () => {
    const body = hookBody({ sections: [2], slides: true });
    expect(await post(body)).toEqual({ status: 202, detail: 'Принято' });
    expect(taken).toEqual([
      {
        products: [7],
        sections: [2],
        selections: [],
        slides: true,
        news: false,
        policy: false,
        everything: false,
      },
    ]);
  });

  it('a hook sent up to the leeway before or after the shop’s clock says', async () => {
    clock = STARTED + 2 * HOOK_LEEWAY_SECONDS * 1000;
    expect((await post(hookBody({ sent_at: seconds() - HOOK_LEEWAY_SECONDS }))).status).toBe(202);
    expect((await post(hookBody({ sent_at: seconds() + HOOK_LEEWAY_SECONDS }))).status).toBe(202);
    expect(taken).toHaveLength(2);
  });

  it('the copies of one delivery (nginx copies it to each instance): acted on once', async () => {
    const body = hookBody();
    const delivery = { [DELIVERY_HEADER]: 'a1b2c3d4e5f6' };
    expect((await post(body, { headers: delivery })).status).toBe(202);
    expect((await post(body, { headers: delivery })).status).toBe(202);
    expect(taken).toHaveLength(1);
  });
});

describe('the change hook refuses, and renews nothing', () => {
  it.each([
    ['another secret', { secret: 'not-the-secret-the-shop-was-given-at-all' }],
    ['no signature', { headers: { [SIGNATURE_HEADER]: '' } }],
    ['a signature of another form', { headers: { [SIGNATURE_HEADER]: 'md5=abc' } }],
  ])('%s: 401', async (_, options) => {
    const answer = await post(hookBody(), options);
    expect(answer).toEqual({
      status: 401,
      detail: expect.stringContaining(`Подпись ${SIGNATURE_HEADER} не сходится`),
    });
    expect(taken).toEqual([]);
  });

  it('a body changed after it was signed: 401', async () => {
    const body = hookBody();
    const answer = await fetch(`${shop.url}${CHANGE_HOOK_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signHook(SECRET, body) },
      body: body.replace('[7]', '[8]'),
    });
    expect(answer.status).toBe(401);
    expect(taken).toEqual([]);
  });

  it.each([
    ['sent too long ago', () => seconds() - HOOK_LEEWAY_SECONDS - 1, 'расходится с часами'],
    ['from too far ahead', () => seconds() + HOOK_LEEWAY_SECONDS + 1, 'расходится с часами'],
    ['sent before this instance started', () => Math.floor(STARTED / 1000) - 1, 'до запуска'],
  ])('a hook %s: 401', async (_, sentAt, says) => {
    const answer = await post(hookBody({ sent_at: sentAt() }));
    expect(answer.status).toBe(401);
    expect(answer.detail).toContain(says);
    expect(taken).toEqual([]);
  });

  it('a replay, however it comes: 401 (a retry is a new hook, with a new id)', async () => {
    const body = hookBody();
    expect((await post(body, { headers: { [DELIVERY_HEADER]: 'first' } })).status).toBe(202);
    for (const headers of [{}, { [DELIVERY_HEADER]: 'second' }] as Record<string, string>[]) {
      const answer = await post(body, { headers });
      expect(answer.status).toBe(401);
      expect(answer.detail).toContain('уже принят');
    }
    expect(taken).toHaveLength(1);
    // Without nginx's delivery id, a second copy is a replay too.
    const direct = hookBody();
    expect((await post(direct)).status).toBe(202);
    expect((await post(direct)).status).toBe(401);
  });

  it.each([
    ['a field the guide does not name', { product: [7] }, 'product'],
    ['an id that is no id', { products: [7, 'семь'] }, 'products.1'],
    ['a flag that is no boolean', { slides: 'yes' }, 'slides'],
    ['no change named', { products: [] }, 'ни одного изменения'],
  ])('%s: 400, saying what', async (_, fields, says) => {
    const answer = await post(hookBody(fields));
    expect(answer.status).toBe(400);
    expect(answer.detail).toContain(says);
    expect(taken).toEqual([]);
  });

  it('a signed body that is not JSON: 400', async () => {
    expect(await post('changed: 7')).toEqual({ status: 400, detail: 'Тело хука — не JSON' });
  });

  it('a body over 16 KB: 413, unread', async () => {
    const answer = await post(hookBody({ products: [7], pad: 'x'.repeat(17_000) }));
    expect(answer.status).toBe(413);
    expect(taken).toEqual([]);
  });

  it('any other method: 405, Allow: POST', async () => {
    const answer = await fetch(`${shop.url}${CHANGE_HOOK_PATH}`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });
});
