// The reference Django backend (contracts/django/reference) honours the committed pact: the proof
// that an ordinary DRF backend, set up as contracts/README.md says, works in front of the shop.
// It needs Debian's python3-django, python3-djangorestframework and python3-pil for
// /usr/bin/python3 (.ci/run installs them); without them the test fails and says so.
import './support/env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DjangoBackend, startDjangoBackend, STATES_PATH } from './django/reference/serve';
import { runVerifyCli } from './support/verify-cli';

// Migrate, seed (photos included) and start: slow on a busy machine.
const START_TIMEOUT_MS = 180_000;

describe('the reference Django backend honours the pact', () => {
  let backend: DjangoBackend | undefined;

  beforeAll(async () => {
    backend = await startDjangoBackend();
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await backend?.stop();
  });

  it('hands every visitor a CSRF cookie from the basket, and only there', async () => {
    const basket = await fetch(`${backend!.url}/api/catalog/basket`);
    expect(basket.headers.getSetCookie().some((line) => line.startsWith('csrftoken='))).toBe(true);
    const products = await fetch(`${backend!.url}/api/catalog/product`);
    expect(products.headers.getSetCookie()).toEqual([]);
  });

  // As a backend team runs it (contracts/README.md, "Verify your backend"), in a child process
  // like the stub's verification: the verifier's report stays out of the test output unless
  // something fails.
  it(
    'passes the Pact Verifier (npm run contracts:verify -- --provider-base-url …)',
    { timeout: 180_000 },
    async () => {
      const url = backend!.url;
      const args = ['--provider-base-url', url, '--state-change-url', `${url}${STATES_PATH}`];
      const { code, output, summary } = await runVerifyCli(args);
      expect(code, `${summary || output}\n\nThe backend's log:\n${backend!.logs()}`).toBe(0);
      expect(summary).toMatch(/^Pact verification: (\d+) interactions, \1 passed, 0 failed\./);
    },
  );

  it("logs each request with the visitor's address from X-Forwarded-For, and the shop's request id", async () => {
    await fetch(`${backend!.url}/api/catalog/section_root`, {
      headers: {
        'X-Forwarded-For': '203.0.113.7',
        'X-Request-Id': '4d6f0e6b3a2c4f1e9b8a7c6d5e4f3a2b',
      },
    });
    await expect
      .poll(() => backend!.logs())
      .toMatch(
        /^203\.0\.113\.7 "GET \/api\/catalog\/section_root" 200 id=4d6f0e6b3a2c4f1e9b8a7c6d5e4f3a2b$/m,
      );
    // An id that is no id is not written as one.
    await fetch(`${backend!.url}/api/catalog/section_root`, {
      headers: { 'X-Request-Id': 'a b"; rm' },
    });
    await expect
      .poll(() => backend!.logs())
      .toMatch(/"GET \/api\/catalog\/section_root" 200 id=-$/m);
  });

  /** A visitor of the backend: their cookies, a basket line, and order_commit with a key. */
  async function visitor() {
    // Orders take from stock (the pact's run has ordered product 7 many times): some is there.
    const stocked = await fetch(`${backend!.url}${STATES_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: 'product {id} exists', params: { id: 7 }, action: 'setup' }),
    });
    expect(stocked.status).toBe(200);
    const basket = await fetch(`${backend!.url}/api/catalog/basket`);
    const cookies = new Map(
      basket.headers.getSetCookie().map((line) => {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        return [pair.slice(0, at), pair.slice(at + 1)] as const;
      }),
    );
    const headers = () => ({
      'Content-Type': 'application/json',
      'X-CSRFToken': cookies.get('csrftoken') ?? '',
      Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    });
    const put = await fetch(`${backend!.url}/api/catalog/basket/7`, {
      method: 'PUT',
      headers: headers(),
      body: JSON.stringify({ amount: 1 }),
    });
    for (const line of put.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    expect(put.status).toBe(200);
    return {
      commit: async (key: string) => {
        const answer = await fetch(`${backend!.url}/api/catalog/order_commit`, {
          method: 'POST',
          headers: { ...headers(), 'Idempotency-Key': key },
          body: JSON.stringify({
            delivery: '2',
            policy_accept: true,
            send_accept: false,
            comment: '',
            phone: '+7(916)-123-45-67',
          }),
        });
        const text = await answer.text();
        if (!text.startsWith('{')) throw new Error(`${answer.status} ${text.slice(0, 3000)}`);
        return { status: answer.status, body: JSON.parse(text) as unknown };
      },
      orders: async () => {
        const answer = await fetch(`${backend!.url}/api/catalog/order_history`, {
          headers: headers(),
        });
        return (await answer.json()) as unknown[];
      },
    };
  }

  it('places one order per Idempotency-Key and visitor; a repeat gets the first answer', async () => {
    const anna = await visitor();
    const key = crypto.randomUUID();
    // At once, as a double click on two instances: one places, the others wait (409) or replay.
    const answers = await Promise.all([anna.commit(key), anna.commit(key), anna.commit(key)]);
    const placed = answers.filter((answer) => answer.status === 201);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    for (const answer of placed) expect(answer.body).toEqual(placed[0]?.body);
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expect(answer).toEqual({
        status: 409,
        body: { detail: expect.stringMatching(/оформляется/) },
      });
    }
    expect(await anna.commit(key)).toEqual(placed[0]);
    expect(await anna.orders()).toHaveLength(1);
    // Another visitor's same key is their own attempt.
    const boris = await visitor();
    expect((await boris.commit(key)).status).toBe(201);
    expect(await anna.orders()).toHaveLength(1);
  });
});
