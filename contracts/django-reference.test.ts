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

  it("logs each request with the visitor's address from X-Forwarded-For", async () => {
    await fetch(`${backend!.url}/api/catalog/section_root`, {
      headers: { 'X-Forwarded-For': '203.0.113.7' },
    });
    await expect
      .poll(() => backend!.logs())
      .toMatch(/^203\.0\.113\.7 "GET \/api\/catalog\/section_root" 200$/m);
  });
});
