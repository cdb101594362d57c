// The harness's own logic: the completeness check finds what is missing, the pact file is
// written in a stable order, and the verify CLI reads its arguments.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { exactNumber, nullable, nullableRules, sectionBody } from './support/bodies';
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
import { shortText } from './support/causes';
import { splitHost, verifyProvider } from './support/provider';
import { formatReport, readableMismatches } from './support/report';
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

  it('turns nullable fields into "null or the matcher" rules at the paths Pact writes', () => {
    const product = { id: M.integer(7), price: nullable(890, M.number(100)) };
    const { body, rules } = nullableRules({
      list: M.eachLike(product),
      basket: M.eachKeyLike('7', { product }),
      image: nullable(null, M.regex(/^\//, '/a.svg')),
    });
    expect(rules).toEqual({
      '$.list[*].price': [{ match: 'number' }, { match: 'null' }],
      '$.basket.*.product.price': [{ match: 'number' }, { match: 'null' }],
      '$.image': [{ match: 'regex', regex: '^\\/' }, { match: 'null' }],
    });
    expect(JSON.stringify(body)).not.toContain('nullable');
    expect(body).toMatchObject({ image: null, list: { value: [{ price: 890 }] } });
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

describe('the verification summary', () => {
  it('reads a null where a pattern was expected as null, and joins the halves of "or null"', () => {
    expect(
      readableMismatches([
        { path: '$[0].image', actual: 'null', mismatch: "Expected '' to match '^/\\S+$'" },
        {
          path: '$[1].price',
          actual: '"1.00"',
          mismatch: "Expected '1.00' (String) to be a number",
        },
        {
          path: '$[1].price',
          actual: '"1.00"',
          mismatch: "Expected '1.00' (String) to be a null value",
        },
        {
          path: '$[1].price',
          actual: '"1.00"',
          mismatch: "Expected '1.00' (String) to be a number",
        },
        { path: '$[2].name', actual: '""', mismatch: "Expected '' to match '^.+$'" },
      ]),
    ).toEqual([
      "$[0].image: Expected null to match '^/\\S+$'",
      "$[1].price: Expected '1.00' (String) to be a number, or null",
      "$[2].name: Expected '' to match '^.+$'",
    ]);
  });

  it('gives an HTML error page by its title and takes Host out of the headers', () => {
    expect(shortText('<html><head><title>Page not found at /x</title></head><body>…')).toBe(
      'Page not found at /x',
    );
    expect(shortText('{"detail": "unknown"}')).toBe('{"detail": "unknown"}');
    expect(splitHost({ host: 'shop.example', Referer: 'r' })).toEqual({
      host: 'shop.example',
      others: { Referer: 'r' },
    });
  });
});

describe('contracts:verify against a provider', () => {
  /** Two interactions with states; the provider answers a null image and 404 to state set-ups. */
  const PACT = {
    consumer: { name: 'c' },
    provider: { name: 'p' },
    interactions: ['/api/a', '/api/b'].map((path) => ({
      type: 'Synchronous/HTTP',
      description: `GET ${path}`,
      providerStates: [{ name: 'product {id} exists', params: { id: 7 } }],
      request: { method: 'GET', path },
      response: {
        status: 200,
        body: { content: { image: '/a.svg' }, contentType: 'application/json', encoded: false },
        matchingRules: {
          body: { '$.image': { combine: 'AND', matchers: [{ match: 'regex', regex: '^/\\S+$' }] } },
        },
      },
    })),
    metadata: { pactSpecification: { version: '4.0' } },
  };

  async function provider() {
    const hosts: string[] = [];
    const server = createServer((request, response) => {
      if (request.url?.startsWith('/api/')) hosts.push(request.headers.host ?? '');
      const found = request.url?.startsWith('/api/');
      response.writeHead(found ? 200 : 404, {
        'Content-Type': found ? 'application/json' : 'text/html',
      });
      response.end(found ? '{"image": null}' : '<title>Page not found at /state</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { hosts, url, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('replays with the host of the provider URL, or the Host header given, and sums up a state URL that failed every state in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berries-verify-test-'));
    const pactFile = join(dir, 'pact.json');
    writeFileSync(pactFile, JSON.stringify(PACT));
    const backend = await provider();
    try {
      const report = await verifyProvider({
        providerBaseUrl: backend.url,
        stateChangeUrl: `${backend.url}/state`,
        pactFile,
        logLevel: 'error',
      });
      expect(backend.hosts).toEqual([new URL(backend.url).host, new URL(backend.url).host]);
      expect(report.ok).toBe(false);
      const summary = formatReport(report).split('\n');
      expect(summary).toHaveLength(2);
      expect(summary[1]).toContain(
        `The state-change URL ${backend.url}/state answered HTTP 404 for every state (1 states)`,
      );
      expect(summary[1]).toContain('is it mounted?');
      expect(summary[1]).toContain('Page not found at /state');
      expect(report.failures.flatMap((failure) => failure.reasons)).toContain(
        "$.image: Expected null to match '^/\\S+$'",
      );

      backend.hosts.length = 0;
      await verifyProvider({
        providerBaseUrl: backend.url,
        pactFile,
        headers: { Host: 'shop.example' },
        logLevel: 'error',
      });
      expect(backend.hosts).toEqual(['shop.example', 'shop.example']);
    } finally {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('contracts:verify names a provider state not set up as the cause', () => {
  /** Two interactions, each with a state; the second's is not written yet. */
  const PACT = {
    consumer: { name: 'c' },
    provider: { name: 'p' },
    interactions: [
      { path: '/api/a', state: 'product {id} exists', params: { id: 7 }, status: 200 },
      { path: '/api/b', state: 'the basket is empty', params: {}, status: 409 },
    ].map(({ path, state, params, status }) => ({
      type: 'Synchronous/HTTP',
      description: `GET ${path}`,
      providerStates: [{ name: state, params }],
      request: { method: 'GET', path },
      response: { status },
    })),
    metadata: { pactSpecification: { version: '4.0' } },
  };

  it("puts the state endpoint's answer first, before the status that follows from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berries-verify-state-'));
    const pactFile = join(dir, 'pact.json');
    writeFileSync(pactFile, JSON.stringify(PACT));
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url === '/state') {
          const missing = body.includes('the basket is empty');
          response.writeHead(missing ? 501 : 200, { 'Content-Type': 'application/json' });
          response.end(
            missing
              ? '{"detail": "not set up yet: fill in empty_basket() in shop.pact_states"}'
              : '{}',
          );
          return;
        }
        // Without its state, /api/b answers as if nothing were under way.
        response.writeHead(request.url === '/api/b' ? 201 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const report = await verifyProvider({
        providerBaseUrl: url,
        stateChangeUrl: `${url}/state`,
        pactFile,
        logLevel: 'error',
      });
      expect(report.failures.map((failure) => failure.description)).toEqual(['GET /api/b']);
      expect(formatReport(report).split('\n')).toEqual([
        'Pact verification: 2 interactions, 1 passed, 1 failed.',
        '  ✗ the provider state «the basket is empty» was not set up: HTTP 501 {"detail": "not set up yet: fill in empty_basket() in shop.pact_states"}',
        '      in GET /api/b',
        '      pact: expected 409 but was 201',
        'Failures by cause:',
        '    1  a provider state was not set up',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('contracts:verify and CSRF: the token comes from the basket, as in a browser', () => {
  /** One PUT, sent with X-CSRFToken as the app sends it. */
  const PACT = {
    consumer: { name: 'c' },
    provider: { name: 'p' },
    interactions: [
      {
        type: 'Synchronous/HTTP',
        description: 'PUT /api/catalog/basket/7',
        request: {
          method: 'PUT',
          path: '/api/catalog/basket/7',
          headers: { 'X-CSRFToken': ['pactCsrfTokenForContractTests123'] },
          matchingRules: {
            header: {
              'X-CSRFToken': {
                combine: 'AND',
                matchers: [{ match: 'regex', regex: '^[A-Za-z0-9]{32,64}$' }],
              },
            },
          },
        },
        response: { status: 200 },
      },
    ],
    metadata: { pactSpecification: { version: '4.0' } },
  };
  const TOKEN = 'tokenFromTheBackendsOwnBasket0123456789abcdefghij';

  /** Django's CsrfViewMiddleware in short: the cookie must be there and equal the header. */
  async function djangoLike(handsOutToken: boolean, httpOnly = false) {
    const server = createServer((request, response) => {
      if (request.method === 'GET' && request.url === '/api/catalog/basket') {
        const flags = httpOnly ? '; HttpOnly' : '';
        if (handsOutToken) response.setHeader('Set-Cookie', `csrftoken=${TOKEN}; Path=/${flags}`);
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        return;
      }
      const cookie = /csrftoken=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      const ok = cookie === TOKEN && request.headers['x-csrftoken'] === TOKEN;
      response
        .writeHead(ok ? 200 : 403, { 'Content-Type': 'application/json' })
        .end(ok ? '{}' : '{"detail": "CSRF Failed: CSRF cookie not set."}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  async function verify(handsOutToken: boolean, httpOnly = false) {
    const dir = mkdtempSync(join(tmpdir(), 'berries-verify-csrf-'));
    const pactFile = join(dir, 'pact.json');
    writeFileSync(pactFile, JSON.stringify(PACT));
    const backend = await djangoLike(handsOutToken, httpOnly);
    try {
      return await verifyProvider({ providerBaseUrl: backend.url, pactFile, logLevel: 'error' });
    } finally {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('passes a backend whose basket sets csrftoken (ensure_csrf_cookie)', async () => {
    const report = await verify(true);
    expect(formatReport(report)).toBe('Pact verification: 1 interactions, 1 passed, 0 failed.');
    expect(report.ok).toBe(true);
  });

  it('fails a plain DRF backend that never hands out the token, and says why', async () => {
    const report = await verify(false);
    expect(report.ok).toBe(false);
    const summary = formatReport(report);
    expect(summary).toContain('✗ CSRF: GET /api/catalog/basket (HTTP 200) set no csrftoken cookie');
    expect(summary).toContain('ensure_csrf_cookie');
    // The interaction's own failure says its cause first: the provider's 403 and what it said.
    expect(summary).toContain(
      '  ✗ 403 on a write: was the `csrftoken` cookie set by `GET /api/catalog/basket`? (it said: CSRF Failed: CSRF cookie not set.)\n      in PUT /api/catalog/basket/7\n      pact: ',
    );
    expect(summary).toMatch(/Failures by cause:\n {4}1 {2}403 on a write \(CSRF\)$/);
  });

  // Its PUT passes here (the verifier sends the cookie as a server would), but the app in the
  // browser cannot read an HttpOnly cookie to send it back: every visitor's PUT would be 403.
  it('fails a backend whose CSRF cookie is HttpOnly (CSRF_COOKIE_HTTPONLY), and says why', async () => {
    const report = await verify(true, true);
    expect(report.ok).toBe(false);
    const summary = formatReport(report);
    expect(summary).toContain('✗ CSRF: GET /api/catalog/basket set the csrftoken cookie HttpOnly');
    expect(summary).toContain('CSRF_COOKIE_HTTPONLY');
  });
});
