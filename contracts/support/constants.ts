// Names and fixed values every part of the harness agrees on: the consumer tests put them in the
// pact, the verifier replays them, and contracts/README.md tells backend developers about them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONSUMER = 'berries-shop-web';
export const PROVIDER = 'berries-shop-api';

export const PACT_DIR = fileURLToPath(new URL('../pacts/', import.meta.url));
export const PACT_FILE = join(PACT_DIR, `${CONSUMER}-${PROVIDER}.json`);

/**
 * The anti-forgery token the app sends as X-CSRFToken. 32 letters and digits, the shape of
 * Django's CSRF secret: Django (and the stub) reject a `csrftoken` cookie of any other shape, and
 * the verifier sends this value in both the header and the cookie.
 */
export const PACT_CSRF_TOKEN = 'pactCsrfTokenForContractTests123';

/**
 * The `sessionid` cookie the verifier adds to every request: the anonymous visitor whose basket
 * and orders the provider states set up. 32 lower-case letters and digits, like a Django key.
 */
export const PACT_SESSION = 'pactsessionforcontracttests00001';

/** A DRF token (40 hex digits) that a provider state gives to the demo user. */
export const USER_TOKEN = '9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b';

/** A token a provider state revokes: every call with it must answer 401. */
export const REVOKED_TOKEN = '0badc0de0badc0de0badc0de0badc0de0badc0de';
