// The change hook's pact, written from the backend's side (the consumer) as the guide shows it
// (contracts/README.md, "Tell the shop what changed"): what a backend sends, and what the shop
// answers. Each interaction's request is the guide's example, signed as the guide says, sent to
// Pact's mock of the shop; once all pass, contracts/hook-pact/ is written anew. A backend team
// reads there exactly what the shop takes; tests/e2e/change-hook-pact.test.ts verifies the shop.
import './support/env';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3 as M, PactV4 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EXAMPLE_CHANGE,
  EXAMPLE_SECRET,
  HOOK_CONSUMER,
  HOOK_PACT_DIR,
  HOOK_PACT_FILE,
  HOOK_PATH,
  HOOK_PROVIDER,
  HOOK_STATES,
  SIGNATURE_HEADER,
  SIGNATURE_PATTERN,
} from './support/change-hook';
import { normalizePact, type PactFile } from './support/pact-file';

const scratchDir = mkdtempSync(join(tmpdir(), 'berries-hook-pact-'));
const declared = new Set<string>();
const passed = new Set<string>();

const sign = (body: string, secret = EXAMPLE_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

interface HookInteraction {
  description: string;
  state: string;
  /** The body the backend sends (the id and time are the example's: the verifier signs anew). */
  body: Record<string, unknown>;
  status: number;
  detail: string;
}

/** The body as the pact pins it: an id of its own, a whole number of seconds, ids as numbers. */
function bodyMatchers(body: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => {
      if (key === 'id') return [key, M.regex(/^[A-Za-z0-9-]{8,100}$/, String(value))];
      if (key === 'sent_at') return [key, M.integer(Number(value))];
      if (Array.isArray(value) && value.length > 0) {
        return [key, M.eachLike(M.integer(Number(value[0])), value.length)];
      }
      return [key, value];
    }),
  );
}

function hookContract(spec: HookInteraction): void {
  declared.add(spec.description);
  it(spec.description, async () => {
    const pact = new PactV4({
      consumer: HOOK_CONSUMER,
      provider: HOOK_PROVIDER,
      dir: scratchDir,
      logLevel: 'error',
    });
    const text = JSON.stringify(spec.body);
    await pact
      .addInteraction()
      .given(spec.state)
      .uponReceiving(spec.description)
      .withRequest('POST', HOOK_PATH, (builder) => {
        builder.headers({
          'Content-Type': 'application/json',
          [SIGNATURE_HEADER]: M.regex(SIGNATURE_PATTERN, sign(text)),
        });
        builder.jsonBody(bodyMatchers(spec.body));
      })
      .willRespondWith(spec.status, (builder) => {
        builder.jsonBody({ detail: M.string(spec.detail) });
      })
      .executeTest(async (mockServer) => {
        // The backend's send, as the guide's sender makes it: the body's bytes, signed.
        const answer = await fetch(`${mockServer.url}${HOOK_PATH}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: sign(text) },
          body: text,
        });
        expect(answer.status).toBe(spec.status);
      });
    passed.add(spec.description);
  });
}

describe('the change hook, as the backend sends it (consumer: the backend)', () => {
  hookContract({
    description: 'POST /hooks/changed: products, sections and selections changed',
    state: HOOK_STATES.shared,
    body: EXAMPLE_CHANGE,
    status: 202,
    detail: 'Принято',
  });
  hookContract({
    description: 'POST /hooks/changed: the carousel, the news and the policy changed',
    state: HOOK_STATES.shared,
    body: {
      id: EXAMPLE_CHANGE.id,
      sent_at: EXAMPLE_CHANGE.sent_at,
      slides: true,
      news: true,
      policy: true,
    },
    status: 202,
    detail: 'Принято',
  });
  hookContract({
    description: 'POST /hooks/changed: everything changed (an import)',
    state: HOOK_STATES.shared,
    body: { id: EXAMPLE_CHANGE.id, sent_at: EXAMPLE_CHANGE.sent_at, everything: true },
    status: 202,
    detail: 'Принято',
  });
  hookContract({
    description: 'POST /hooks/changed: a field the shop does not know is refused (a typo)',
    state: HOOK_STATES.shared,
    body: { id: EXAMPLE_CHANGE.id, sent_at: EXAMPLE_CHANGE.sent_at, product: [7] },
    status: 400,
    detail: 'product: Invalid key: Expected never but received "product"',
  });
  hookContract({
    description: 'POST /hooks/changed: signed with another secret, refused',
    state: HOOK_STATES.otherSecret,
    body: EXAMPLE_CHANGE,
    status: 401,
    detail: 'Подпись X-Shop-Signature не сходится',
  });
  hookContract({
    description: 'POST /hooks/changed: sent more than five minutes ago, refused',
    state: HOOK_STATES.sentLongAgo,
    body: EXAMPLE_CHANGE,
    status: 401,
    detail: 'sent_at расходится с часами магазина',
  });
  hookContract({
    description: 'POST /hooks/changed: a hook the shop took, sent again as it was, refused',
    state: HOOK_STATES.takenBefore,
    body: EXAMPLE_CHANGE,
    status: 401,
    detail: 'Хук уже принят',
  });

  afterAll(() => {
    const missing = [...declared].filter((description) => !passed.has(description));
    try {
      if (missing.length > 0) {
        console.warn(`[contracts] ${HOOK_PACT_FILE} left as it was: ${missing.length} failed`);
        return;
      }
      const scratch = join(scratchDir, `${HOOK_CONSUMER}-${HOOK_PROVIDER}.json`);
      const pact = JSON.parse(readFileSync(scratch, 'utf8')) as PactFile;
      mkdirSync(HOOK_PACT_DIR, { recursive: true });
      for (const name of readdirSync(HOOK_PACT_DIR)) {
        if (name.endsWith('.json')) rmSync(join(HOOK_PACT_DIR, name));
      }
      writeFileSync(HOOK_PACT_FILE, normalizePact(pact));
    } finally {
      rmSync(scratchDir, { recursive: true, force: true });
    }
  });
});
