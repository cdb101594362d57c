// The shop as the provider of the change hook's pact (contracts/hook-pact/, written by
// contracts/change-hook.test.ts from the guide's example): Pact's Verifier replays each
// interaction against a running instance (`node dist/host/main.js`) given the example's secret.
// The pact's bodies carry the example's id and time; the verifier's request filter gives each a
// new id and the time of sending, and signs it, as a backend sends each hook: with the shared
// secret, or as each provider state says (another secret, six minutes ago, a hook taken before).
import '../../contracts/support/env';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import type { NextFunction, Request, Response } from 'express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  EXAMPLE_CHANGE,
  EXAMPLE_SECRET,
  HOOK_PACT_FILE,
  HOOK_PATH,
  HOOK_PROVIDER,
  HOOK_STATES,
  SIGNATURE_HEADER,
} from '../../contracts/support/change-hook';
import { type Instance, startShopProcess } from './nginx-recipe.ts';

let shop: Instance;
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-hook-pact-'));
  shop = await startShopProcess({
    env: { CHANGE_HOOK_SECRET: EXAMPLE_SECRET, STUB_DATA_FILE: path.join(dataDir, 'db.json') },
  });
});
afterAll(async () => {
  await shop?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const sign = (text: string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

test('the shop takes the change hook as its pact says (Pact Verifier, the shop as provider)', async () => {
  /** How the next hook is signed and timed, as its provider state says. */
  let signing: 'shared' | 'other secret' | 'six minutes ago' | 'taken before' = 'shared';
  let takenBefore = '';
  const verifier = new Verifier({
    provider: HOOK_PROVIDER,
    providerBaseUrl: shop.url,
    pactUrls: [HOOK_PACT_FILE],
    logLevel: 'warn',
    stateHandlers: {
      [HOOK_STATES.shared]: async () => {
        signing = 'shared';
      },
      [HOOK_STATES.otherSecret]: async () => {
        signing = 'other secret';
      },
      [HOOK_STATES.sentLongAgo]: async () => {
        signing = 'six minutes ago';
      },
      // The shop takes a hook; the interaction's request is that hook again.
      [HOOK_STATES.takenBefore]: async () => {
        signing = 'taken before';
        takenBefore = JSON.stringify({ ...EXAMPLE_CHANGE, id: randomUUID(), sent_at: now() });
        const taken = await fetch(`${shop.url}${HOOK_PATH}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            [SIGNATURE_HEADER]: sign(takenBefore, EXAMPLE_SECRET),
          },
          body: takenBefore,
        });
        if (taken.status !== 202) throw new Error(`the first hook was not taken: ${taken.status}`);
      },
    },
    requestFilter: (req: Request, _res: Response, next: NextFunction) => {
      if (req.path === HOOK_PATH && req.body && typeof req.body === 'object') {
        const sentAt = signing === 'six minutes ago' ? now() - 360 : now();
        const body =
          signing === 'taken before'
            ? (JSON.parse(takenBefore) as object)
            : { ...(req.body as object), id: randomUUID(), sent_at: sentAt };
        // The verifier's proxy sends req.body as JSON.stringify writes it: these bytes.
        const text = JSON.stringify(body);
        req.body = body;
        req.headers['content-length'] = String(Buffer.byteLength(text));
        req.headers[SIGNATURE_HEADER.toLowerCase()] = sign(
          text,
          signing === 'other secret' ? 'a-secret-that-is-not-the-shops' : EXAMPLE_SECRET,
        );
      }
      next();
    },
  });
  await expect(verifier.verifyProvider()).resolves.toBeDefined();
});
