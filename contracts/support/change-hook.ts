// The backend's change hook as a contract of its own (contracts/README.md, "Tell the shop what
// changed"): here the backend is the consumer, which sends, and the shop the provider, which
// takes. contracts/change-hook.test.ts writes the pact from the guide's example;
// tests/e2e/change-hook-pact.test.ts verifies a running instance of the shop against it. Its own
// folder: the shop's pact of its calls (contracts/pacts) is written and published apart.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSUMER, PROVIDER } from './constants';

/** The backend: the other pact's provider. */
export const HOOK_CONSUMER = PROVIDER;
/** The shop: the other pact's consumer. */
export const HOOK_PROVIDER = CONSUMER;
export const HOOK_PACT_DIR = fileURLToPath(new URL('../hook-pact/', import.meta.url));
export const HOOK_PACT_FILE = join(HOOK_PACT_DIR, `${HOOK_CONSUMER}-${HOOK_PROVIDER}.json`);

export const HOOK_PATH = '/hooks/changed';
export const SIGNATURE_HEADER = 'X-Shop-Signature';
export const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;

/** The secret the pact's examples are signed with; the verified shop is given it. */
export const EXAMPLE_SECRET = 'the-secret-the-backend-and-the-shop-share';

/** The guide's example: a product's price changed, so did a section and a selection. */
export const EXAMPLE_CHANGE = {
  id: '3f2b8c4e9d0a4b7c8e1f2a3b4c5d6e7f',
  sent_at: 1767225600,
  products: [7],
  sections: [15],
  selections: [1],
};

/** The provider states of the hook's pact: how the verification signs each request. */
export const HOOK_STATES = {
  shared: 'the backend and the shop share the secret',
  otherSecret: 'the hook is signed with another secret',
  sentLongAgo: 'the hook was sent six minutes ago',
  takenBefore: 'the shop has taken this hook before',
} as const;
