// The harness's own logic: the completeness check finds what is missing, the pact file is
// written in a stable order, and the verify CLI reads its arguments.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { exactNumber, sectionBody } from './support/bodies';
import {
  apiModulesNotCovered,
  fieldsNotReadByApp,
  functionsWithoutInteraction,
  requiredResponseFields,
  routesWithoutInteraction,
  statesMissingFromGuide,
  statesWithoutParams,
} from './support/completeness';
import { EXOTIC_BERRIES } from './support/examples';
import { normalizePact, type PactFile, type PactInteraction } from './support/pact-file';
import type { StubRoute } from './support/stub-routes';
import { parseCli, unreachable, UsageError } from './verify';

const interaction = (
  description: string,
  method: string,
  path: string,
  extra: Partial<PactInteraction> = {},
): PactInteraction => ({
  description,
  request: { method, path },
  response: { status: 200 },
  ...extra,
});

const pactOf = (...interactions: PactInteraction[]): PactFile => ({
  consumer: { name: 'c' },
  provider: { name: 'p' },
  interactions,
  metadata: {},
});

const route = (method: string, path: string, pattern: RegExp): StubRoute => ({
  method,
  path,
  matches: (apiPath) => pattern.test(apiPath),
});

describe('the completeness check', () => {
  const pact = pactOf(
    interaction('GET product', 'GET', '/api/catalog/product_retrieve/7', {
      comments: { apiFunction: 'src/api/catalog.ts getProduct' },
      providerStates: [{ name: 'product {id} exists', params: { id: 7 } }],
    }),
  );

  it('names the src/api functions without an interaction', () => {
    expect(
      functionsWithoutInteraction(pact, [
        'src/api/catalog.ts getProduct',
        'src/api/catalog.ts getSection',
      ]),
    ).toEqual(['src/api/catalog.ts getSection']);
  });

  it('names the stub routes no interaction exercises, by method and path', () => {
    const routes = [
      route('GET', '/catalog/product_retrieve/:id(\\d+)', /^\/catalog\/product_retrieve\/\d+$/),
      route('DELETE', '/catalog/product_retrieve/:id(\\d+)', /^\/catalog\/product_retrieve\/\d+$/),
      route('GET', '/catalog/section', /^\/catalog\/section$/),
    ];
    expect(routesWithoutInteraction(pact, routes)).toEqual([
      'DELETE /api/catalog/product_retrieve/:id(\\d+)',
      'GET /api/catalog/section',
    ]);
  });

  it('names a src/api module that is neither an API module nor the client machinery', () => {
    const files = ['catalog.ts', 'http.ts', 'reviews.ts', 'types.ts'];
    expect(apiModulesNotCovered(files, ['catalog'], ['http.ts', 'types.ts'])).toEqual([
      'src/api/reviews.ts',
    ]);
  });

  it('counts a handler of every method as exercised by any interaction on its path', () => {
    const routes = [
      route('*', '/content/contacts', /^\/content\/contacts$/),
      route('*', '/content/about', /^\/content\/about$/),
    ];
    const contacts = pactOf(interaction('POST contacts', 'POST', '/api/content/contacts'));
    expect(routesWithoutInteraction(contacts, routes)).toEqual(['* /api/content/about']);
  });

  it('names states whose params lack a placeholder of the name', () => {
    const broken = pactOf(
      interaction('x', 'GET', '/api/x', {
        providerStates: [
          { name: 'the basket holds product {id} with amount {amount}', params: { id: 7 } },
        ],
      }),
    );
    expect(statesWithoutParams(pact)).toEqual([]);
    expect(statesWithoutParams(broken)).toEqual([
      'x: "the basket holds product {id} with amount {amount}" has no param amount',
    ]);
  });

  it('lists the fields of every response body, nested ones too, but not ids used as keys', () => {
    const answers = pactOf(
      interaction('GET basket', 'GET', '/api/catalog/basket', {
        response: { status: 200, body: { content: { '7': { product: { id: 7 }, amount: 1 } } } },
      }),
      interaction('GET user', 'GET', '/api/auth/user/me/', {
        response: { status: 200, body: { content: [{ username: 'demo', email: 'a@b' }] } },
      }),
    );
    expect(requiredResponseFields(answers)).toEqual([
      'amount',
      'email',
      'id',
      'product',
      'username',
    ]);
  });

  it('names the fields the pact asks for that no app source reads', () => {
    const user = pactOf(
      interaction('GET user', 'GET', '/api/auth/user/me/', {
        response: { status: 200, body: { content: { username: 'demo', email: 'a@b' } } },
      }),
    );
    const reads = 'const name = user?.username;';
    expect(fieldsNotReadByApp(user, [reads])).toEqual(['email']);
    expect(fieldsNotReadByApp(user, [reads, 'send(user.email)'])).toEqual([]);
    // Named in a comment, or a longer name that starts the same, is not a read.
    expect(
      fieldsNotReadByApp(user, [reads, '// user.email\n/* user.email */ user.emails']),
    ).toEqual(['email']);
  });

  it('names states the guide does not document', () => {
    expect(statesMissingFromGuide(pact, '| `product {id} exists` |')).toEqual([]);
    expect(statesMissingFromGuide(pact, 'product exists')).toEqual(['product {id} exists']);
  });
});

describe('the pact file text', () => {
  it('sorts interactions by description, whatever order the tests ran in', () => {
    const a = interaction('GET /api/b', 'GET', '/api/b');
    const b = interaction('DELETE /api/a', 'DELETE', '/api/a');
    const text = normalizePact(pactOf(a, b));
    expect(normalizePact(pactOf(b, a))).toBe(text);
    expect((JSON.parse(text) as PactFile).interactions.map((i) => i.description)).toEqual([
      'DELETE /api/a',
      'GET /api/b',
    ]);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('refuses two interactions with one description', () => {
    const a = interaction('GET /api/a', 'GET', '/api/a');
    expect(() => normalizePact(pactOf(a, { ...a }))).toThrow(/Two interactions/);
  });
});

describe('the body matchers', () => {
  const patternOf = (value: number): RegExp => {
    const regex = exactNumber('$.amount', value).rules.find(
      (rule) => rule['pact:matcher:type'] === 'regex',
    ) as { regex: string } | undefined;
    return new RegExp(regex?.regex ?? '');
  };

  it('pins a fraction as a decimal of that value, in any trailing-zero notation', () => {
    const types = exactNumber('$.amount', 1.5).rules.map((rule) => rule['pact:matcher:type']);
    expect(types).toEqual(['decimal', 'regex']);
    expect(['1.5', '1.50'].filter((text) => patternOf(1.5).test(text))).toHaveLength(2);
    expect(['1', '2', '15', '1.4', '11.5'].filter((text) => patternOf(1.5).test(text))).toEqual([]);
  });

  it('pins a whole number as any number of that value, 0 or 0.0', () => {
    const types = exactNumber('$.amount', 0).rules.map((rule) => rule['pact:matcher:type']);
    expect(types).toEqual(['number', 'regex']);
    expect(['0', '0.0'].filter((text) => patternOf(0).test(text))).toHaveLength(2);
    expect(['0.1', '10', '1'].filter((text) => patternOf(0).test(text))).toEqual([]);
  });

  it('pins an empty example list as exactly []', () => {
    expect(sectionBody(EXOTIC_BERRIES)).toMatchObject({ children: [], products: [] });
  });
});

describe('contracts:verify arguments', () => {
  it('verifies the embedded stub without arguments', () => {
    expect(parseCli([])).toEqual({
      providerBaseUrl: undefined,
      stateChangeUrl: undefined,
      headers: {},
      pactFile: undefined,
      help: false,
    });
  });

  it('reads the provider, the state-change URL and repeated headers', () => {
    expect(
      parseCli([
        '--provider-base-url',
        'http://127.0.0.1:8000',
        '--state-change-url',
        'http://127.0.0.1:8000/_pact/provider-states',
        '--header',
        'Authorization: Basic dTpw',
        '--header',
        'Referer: https://shop.example/',
      ]),
    ).toMatchObject({
      providerBaseUrl: 'http://127.0.0.1:8000',
      stateChangeUrl: 'http://127.0.0.1:8000/_pact/provider-states',
      headers: { Authorization: 'Basic dTpw', Referer: 'https://shop.example/' },
    });
  });

  it('rejects what it cannot use, saying why', () => {
    expect(() => parseCli(['--provider-base-url', 'localhost:8000'])).toThrow(UsageError);
    expect(() => parseCli(['--provider-base-url', 'http://x', '--header', 'NoColon'])).toThrow(
      /Name: value/,
    );
    expect(() => parseCli(['--state-change-url', 'http://x/state'])).toThrow(
      /needs --provider-base-url/,
    );
    expect(() => parseCli(['--bogus'])).toThrow(UsageError);
  });
});

describe('contracts:verify before it starts', () => {
  it('says why a provider cannot be reached, and lets one that answers at all through', async () => {
    const server = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await unreachable(url)).toBeNull();
    await new Promise((resolve) => server.close(resolve));
    expect(await unreachable(url)).toBe('ECONNREFUSED');
  });
});
