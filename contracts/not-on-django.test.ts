// The guide's "Not on Django?" section says, for any framework, what the Django settings keep:
// each of its rules is checked here against the pact file (and, for what a pact cannot hold,
// against the code that relies on it), so the list cannot drift from the contract.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCookie } from '../src/lib/cookies';
import { CSRF_COOKIE, SESSION_COOKIE } from '../src/server-entry/backend-calls';
import { REVOKED_TOKEN, USER_TOKEN } from './support/constants';
import { type PactInteraction, readPactFile } from './support/pact-file';
import { stateChangeRequest } from './support/provider';

const GUIDE = readFileSync(new URL('./README.md', import.meta.url), 'utf8');

/** The section's text, from its heading to the next one. */
export function section(guide: string, heading: string): string {
  const start = guide.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

/** The bullet of `text` that starts with `**lead**`, joined into one line. */
export function bullet(text: string, lead: string): string {
  const start = text.indexOf(`\n- **${lead}**`);
  if (start < 0) return '';
  const end = text.indexOf('\n- ', start + 1);
  return text
    .slice(start, end < 0 ? undefined : end)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The `code spans` of a text, in order. */
export const codes = (text: string): string[] =>
  [...text.matchAll(/`([^`]+)`/g)].map(([, code]) => code!);

const RULES = section(GUIDE, 'Not on Django?');
const pact = readPactFile();
const interactions = pact.interactions;

type Rules = Record<string, { matchers: { match: string; regex?: string }[] }>;
const bodyRules = (interaction: PactInteraction): Rules =>
  ((interaction.response as { matchingRules?: { body?: Rules } }).matchingRules?.body ??
    {}) as Rules;
const headerRules = (interaction: PactInteraction): Rules =>
  ((interaction.request as { matchingRules?: { header?: Rules } }).matchingRules?.header ??
    {}) as Rules;

/** The regexes the pact's requests match a header against. */
function headerRegexes(name: string): RegExp[] {
  const patterns = new Set(
    interactions.flatMap((interaction) =>
      (headerRules(interaction)[name]?.matchers ?? []).flatMap((m) => (m.regex ? [m.regex] : [])),
    ),
  );
  return [...patterns].map((pattern) => new RegExp(pattern));
}

/** The regex of a header that every interaction matches the same way. */
function headerRegex(name: string): RegExp {
  const patterns = headerRegexes(name);
  expect(patterns, `one pattern for ${name}`).toHaveLength(1);
  return patterns[0]!;
}

/** Answer fields (the last name of a rule's path) with a matcher of one of `kinds`. */
function fieldsMatchedAs(kinds: string[]): Set<string> {
  const fields = new Set<string>();
  for (const interaction of interactions) {
    for (const [path, rule] of Object.entries(bodyRules(interaction))) {
      if (rule.matchers.some((matcher) => kinds.includes(matcher.match))) {
        fields.add(path.split('.').pop()!);
      }
    }
  }
  return fields;
}

const apiPath = (interaction: PactInteraction) => interaction.request.path.replace(/^\/api\//, '');

describe('the section and its bullets are found', () => {
  it('reads a bullet by its lead, and its code spans', () => {
    const text = '\n## X\n\n- **A.** one `a`\n  two `b`\n- **B.** three\n';
    expect(bullet(section(text, 'X'), 'A.')).toBe('- **A.** one `a` two `b`');
    expect(codes(bullet(text, 'A.'))).toEqual(['a', 'b']);
  });
});

describe('"Not on Django?" agrees with the pact file', () => {
  it('names exactly the paths that end with a slash', () => {
    const rule = bullet(RULES, 'Trailing slashes.');
    const slashed = [...new Set(interactions.map(apiPath))].filter((path) => path.endsWith('/'));
    expect(codes(rule).filter((code) => code.endsWith('/'))).toEqual(slashed.sort());
    // Its examples without a slash are paths the pact asks.
    for (const example of codes(rule).filter((code) => !code.endsWith('/'))) {
      expect(interactions.map(apiPath)).toContain(example);
    }
  });

  it('names every number and integer the pact matches as one', () => {
    const [numbers = '', integers = ''] = bullet(RULES, 'Numbers.').split(';');
    const named = codes(numbers).filter((code) => /^[a-z_]+$/.test(code));
    const numeric = fieldsMatchedAs(['number', 'decimal']);
    // The bare number of total_price is the rule of its whole answer, `$`.
    const bare = interactions.filter((interaction) =>
      bodyRules(interaction)['$']?.matchers.some((matcher) => matcher.match === 'number'),
    );
    expect(new Set(bare.map(apiPath))).toEqual(new Set(['catalog/total_price']));
    numeric.delete('$');
    expect(new Set(named)).toEqual(new Set([...numeric, 'total_price']));
    expect(new Set(codes(integers))).toEqual(fieldsMatchedAs(['integer']));
  });

  it('gives a time with its zone as the pact matches created_ts, and one without as refused', () => {
    const [withZone, bare] = codes(bullet(RULES, 'Times.')).filter((code) => /^\d{4}/.test(code));
    const patterns = interactions.flatMap((interaction) =>
      Object.entries(bodyRules(interaction))
        .filter(([path]) => path.endsWith('.created_ts'))
        .flatMap(([, rule]) => rule.matchers.flatMap((m) => (m.regex ? [m.regex] : []))),
    );
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) {
      expect(withZone).toMatch(new RegExp(pattern));
      expect(bare).not.toMatch(new RegExp(pattern));
    }
  });

  it("names the CSRF cookie and header the pact's writes carry, of the length it allows", () => {
    const rule = bullet(RULES, 'The CSRF cookie.');
    expect(codes(rule)).toEqual(
      expect.arrayContaining([CSRF_COOKIE, 'X-CSRFToken', 'HttpOnly', SESSION_COOKIE]),
    );
    // The Cookie of the shop's server's calls: the session's, and on a write the token's too.
    const cookies = headerRegexes('Cookie');
    expect(cookies).toHaveLength(2);
    for (const cookie of cookies) {
      expect(`${CSRF_COOKIE}=${'a'.repeat(32)}; ${SESSION_COOKIE}=b`).toMatch(cookie);
      expect(`${CSRF_COOKIE}=${'a'.repeat(32)}; session=b`).not.toMatch(cookie);
    }
    expect(cookies.filter((cookie) => cookie.test(`${SESSION_COOKIE}=b`))).toHaveLength(1);
    const [, least, most] = /(\d+) to (\d+) letters and digits/.exec(rule) ?? [];
    const header = headerRegex('X-CSRFToken');
    expect('a'.repeat(Number(least))).toMatch(header);
    expect('a'.repeat(Number(least) - 1)).not.toMatch(header);
    expect('a'.repeat(Number(most))).toMatch(header);
    expect('a'.repeat(Number(most) + 1)).not.toMatch(header);
    // Every write carries it, but the one that shows what a write without it gets: 403.
    const writes = interactions.filter((i) => ['PUT', 'POST', 'DELETE'].includes(i.request.method));
    const without = writes.filter((i) => !i.request.headers?.['X-CSRFToken']);
    expect(without.map((i) => i.response.status)).toEqual([403]);
  });

  it('names the cookie the app in the page reads, which an HttpOnly cookie never reaches', () => {
    const page = globalThis as { document?: { cookie: string } };
    page.document = { cookie: `other=1; ${CSRF_COOKIE}=fromThePage` };
    try {
      expect(readCookie('csrftoken')).toBe('fromThePage');
    } finally {
      delete page.document;
    }
  });

  it('gives the token header as the pact sends it, and 401 for a key the backend does not know', () => {
    const rule = bullet(RULES, 'The token header.');
    expect(codes(rule)).toContain('Authorization: Token <key>');
    expect(`Token ${USER_TOKEN}`).toMatch(headerRegex('Authorization'));
    const revoked = interactions.filter((i) =>
      i.request.headers?.Authorization?.includes(`Token ${REVOKED_TOKEN}`),
    );
    expect(revoked.map((i) => i.response.status)).toEqual([401]);
    const login = interactions.filter(
      (i) => apiPath(i) === 'auth/token/' && i.response.status === 200,
    );
    expect(login.length).toBeGreaterThan(0);
    for (const i of login) expect(i.response.body?.content).toHaveProperty('token');
  });

  it('gives Idempotency-Key as a UUID on every order_commit', () => {
    const rule = bullet(RULES, '`Idempotency-Key`.');
    expect(codes(rule)).toContain('Idempotency-Key: <uuid>');
    const commits = interactions.filter((i) => apiPath(i) === 'catalog/order_commit');
    expect(commits.every((i) => i.request.headers?.['Idempotency-Key'])).toBe(true);
    const key = headerRegex('Idempotency-Key');
    expect(crypto.randomUUID()).toMatch(key);
    expect('order-1').not.toMatch(key);
  });

  it("names exactly the forwarded headers of the shop's server's calls", () => {
    const named = codes(bullet(RULES, 'The forwarded headers.')).filter((code) =>
      /^[A-Z][\w-]+$/.test(code),
    );
    // What any call carries, and what the bullets above say.
    const others = ['Accept', 'Content-Type', 'Cookie', 'Authorization', 'X-CSRFToken'];
    const sent = new Set(
      interactions
        .flatMap((i) => Object.keys(i.request.headers ?? {}))
        .filter((name) => !others.includes(name) && name !== 'Idempotency-Key'),
    );
    expect(new Set(named)).toEqual(sent);
  });

  it("gives the provider-state request as the verifier sends it, with a state of the pact's", () => {
    const rule = bullet(RULES, 'The provider-state endpoint.');
    const [cookie, body] = codes(rule).filter((code) => code.includes('=') || code.startsWith('{'));
    const example = JSON.parse(body!) as { state: string; params: unknown };
    const sent = stateChangeRequest(example.state, example.params);
    expect(example).toEqual(sent.body);
    expect(cookie).toBe(sent.headers.Cookie);
    expect(codes(rule)).toContain(`Content-Type: ${sent.headers['Content-Type']}`);
    const states = interactions.flatMap((i) => i.providerStates ?? []);
    expect(states).toContainEqual({ name: example.state, params: example.params });
  });
});
