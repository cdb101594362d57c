// The summary of `npm run contracts:verify` says each failure's cause first, in a backend
// developer's words. The mismatches here are the Pact Verifier's own, as it reported them for
// the mistakes of contracts/mutants/mistakes.ts made to the reference Django backend.
import { describe, expect, it } from 'vitest';
import { type AnswerSeen, causeOf, type FailureFacts } from './support/causes';
import { formatReport, type InteractionFailure } from './support/report';

const facts = (extra: Partial<FailureFacts>): FailureFacts => ({
  method: 'GET',
  path: '/api/catalog/product',
  expectedStatus: 200,
  unsetStates: [],
  mismatches: [],
  ...extra,
});

const answer = (extra: Partial<AnswerSeen>): AnswerSeen => ({
  method: 'GET',
  path: '/api/catalog/product',
  status: 200,
  contentType: 'application/json',
  location: null,
  body: '',
  ...extra,
});

const status = (expected: number, actual: number) => ({
  type: 'StatusMismatch',
  expected,
  actual,
  mismatch: `expected ${expected} but was ${actual}`,
});

describe('the cause of a failed interaction, first', () => {
  it('names the provider state that was not set up, with what the state endpoint answered', () => {
    const cause = causeOf(
      facts({
        unsetStates: [
          {
            state: "the visitor's checkout with Idempotency-Key {key} is being placed",
            answer:
              'HTTP 501 {"detail": "not set up yet: fill in attempt_in_flight() in shop.pact_states"}',
          },
        ],
        // What the answer then looks like: the in-flight row was never written.
        mismatches: [status(409, 201)],
      }),
    );
    expect(cause).toEqual({
      kind: 'state',
      text: 'the provider state «the visitor\'s checkout with Idempotency-Key {key} is being placed» was not set up: HTTP 501 {"detail": "not set up yet: fill in attempt_in_flight() in shop.pact_states"}',
    });
  });

  it('reads a type mismatch the right way round: what the pact wants, then what came', () => {
    const cause = causeOf(
      facts({
        mismatches: [
          {
            type: 'BodyMismatch',
            path: '$.items',
            mismatch:
              'Type mismatch: Expected {"count":10,"results":[]} (Object) to be the same type as [{"id":7}] (Array)',
          },
        ],
      }),
    );
    expect(cause).toEqual({ kind: 'type', text: '`$.items` should be an array, got an object' });
  });

  it('takes the number half of "null or a number", and shows the string that came', () => {
    const price = (half: string) => ({
      type: 'BodyMismatch',
      path: '$[7].product.price',
      actual: '"890.00"',
      mismatch: `Expected '890.00' (String) to be ${half}`,
    });
    const cause = causeOf(facts({ mismatches: [price('a null value'), price('a number')] }));
    expect(cause.text).toBe("`$[7].product.price` should be a number, got the string '890.00'");
    const total = causeOf(
      facts({
        mismatches: [
          {
            type: 'BodyMismatch',
            path: '$',
            mismatch: 'Expected {"total":1335.0} (Object) to be a number',
          },
        ],
      }),
    );
    expect(total.text).toBe('`$` should be a number, got an object');
  });

  it('says a 403 to a write is about the CSRF cookie, with what the backend said', () => {
    const forbidden = answer({
      method: 'PUT',
      status: 403,
      body: '{"detail": "CSRF Failed: CSRF cookie not set."}',
    });
    const cause = causeOf(
      facts({
        method: 'PUT',
        path: '/api/catalog/basket/7',
        mismatches: [status(200, 403)],
        answer: forbidden,
      }),
    );
    expect(cause).toEqual({
      kind: 'csrf',
      text: '403 on a write: was the `csrftoken` cookie set by `GET /api/catalog/basket`? (it said: CSRF Failed: CSRF cookie not set.)',
    });
    const referer = causeOf(
      facts({
        method: 'DELETE',
        mismatches: [status(204, 403)],
        answer: answer({
          ...forbidden,
          body: '{"detail":"CSRF Failed: Referer checking failed - https://shop.example/ does not match any trusted origins."}',
        }),
      }),
    );
    expect(referer.text).toMatch(
      /^403 on a write: Django's CSRF check refused the shop's Referer \(set `USE_X_FORWARDED_HOST`/,
    );
    // A 403 the pact asks for, or to a read, is no CSRF failure.
    const read = causeOf(
      facts({ mismatches: [status(401, 403)], answer: answer({ status: 403 }) }),
    );
    expect(read.kind).toBe('status');
  });

  it("names Django's DisallowedHost page, with DEBUG on and off", () => {
    const page = (body: string) =>
      causeOf(
        facts({
          mismatches: [status(200, 400)],
          answer: answer({ status: 400, contentType: 'text/html; charset=utf-8', body }),
        }),
      );
    const debug = page(
      "<!DOCTYPE html><html><head><title>DisallowedHost at /api/catalog/product</title></head><body>Invalid HTTP_HOST header: 'testserver'.</body></html>",
    );
    expect(debug).toEqual({
      kind: 'html',
      text: "HTML where JSON was expected: Django's DisallowedHost page (check `ALLOWED_HOSTS`)",
    });
    expect(page('\n<h1>Bad Request (400)</h1>\n').text).toContain('check `ALLOWED_HOSTS`');
    expect(page('<html><head><title>Page not found at /api/x</title></head></html>').text).toBe(
      'HTML where JSON was expected: Page not found at /api/x',
    );
  });

  it('says a redirect to the path with a slash is about trailing slashes', () => {
    const cause = causeOf(
      facts({
        method: 'DELETE',
        path: '/api/catalog/basket/7',
        expectedStatus: 204,
        mismatches: [status(204, 403)],
        answer: answer({ method: 'DELETE', status: 301, location: '/api/catalog/basket/7/' }),
      }),
    );
    expect(cause).toEqual({
      kind: 'redirect',
      text: "`DELETE /api/catalog/basket/7` redirects (301) to `/api/catalog/basket/7/`: the pact's paths have no trailing slash, and the shop follows no redirect",
    });
    const appendSlash = causeOf(
      facts({
        method: 'POST',
        mismatches: [status(201, 500)],
        answer: answer({
          status: 500,
          contentType: 'text/plain; charset=utf-8',
          body: "RuntimeError at /api/catalog/order_commit\nYou called this URL via POST, but the URL doesn't end in a slash and you have APPEND_SLASH set.",
        }),
      }),
    );
    expect(appendSlash.text).toBe(
      "text/plain where JSON was expected: Django's APPEND_SLASH error: the pact's paths have no trailing slash",
    );
  });

  it('puts a wrong status before the body that follows from it, with the answer it had', () => {
    const cause = causeOf(
      facts({
        method: 'POST',
        expectedStatus: 201,
        mismatches: [
          {
            type: 'BodyMismatch',
            path: '$',
            mismatch: 'Actual map is missing the following keys: items',
          },
          {
            type: 'StatusMismatch',
            expected: 201,
            actual: 400,
            mismatch: 'Expected status code 400 to be a Successful response (200–299)',
          },
        ],
        answer: answer({
          status: 400,
          body: '{"non_field_errors": ["В корзине нет доступных товаров"]}',
        }),
      }),
    );
    expect(cause.text).toBe(
      'answered 400 where the pact expects a 2xx (it said: {"non_field_errors": ["В корзине нет доступных товаров"]})',
    );
    const token = causeOf(facts({ expectedStatus: 401, mismatches: [status(401, 403)] }));
    expect(token.text).toBe(
      'answered 403 where the pact expects 401: a token the backend does not know must answer 401 (token authentication first)',
    );
  });

  it('says what a body lacks, an empty list, and a value off its pattern', () => {
    const body = (mismatch: string, path = '$', actual?: string) =>
      causeOf(facts({ mismatches: [{ type: 'BodyMismatch', path, mismatch, actual }] }));
    expect(body('Actual map is missing the following keys: amount, product')).toEqual({
      kind: 'missing',
      text: '`$` lacks `amount`, `product`',
    });
    expect(body('Expected [] (size 0) to have minimum size of 1')).toEqual({
      kind: 'empty',
      text: '`$` should hold at least 1 item, got []',
    });
    expect(
      body(
        "Expected '2026-11-29T01:23:54.210131' to match '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$'",
        '$[0].created_ts',
      ).text,
    ).toBe(
      "`$[0].created_ts` should be a time with its zone (+03:00 or Z), got '2026-11-29T01:23:54.210131'",
    );
    expect(
      body("Expected 'catalog/product-7.jpg' to match '^(\\/|https?:\\/\\/)\\S+$'", '$.image').text,
    ).toBe("`$.image` should match `^(\\/|https?:\\/\\/)\\S+$`, got 'catalog/product-7.jpg'");
    expect(body("Expected 'Новый' (String) to be an integer", '$[0].status').text).toBe(
      "`$[0].status` should be an integer, got the string 'Новый'",
    );
  });

  it('says a request that got no answer at all', () => {
    expect(causeOf(facts({ error: 'error sending request: connection refused' }))).toEqual({
      kind: 'request',
      text: 'the request got no answer: error sending request: connection refused',
    });
  });
});

describe('the summary', () => {
  const failure = (description: string, kind: InteractionFailure['cause']['kind']) => ({
    description,
    cause: { kind, text: `cause of ${description}` },
    reasons: [`a line of Pact's about ${description}`],
  });

  it("gives each failure's cause first, then the interaction and Pact's lines, then counts causes", () => {
    const summary = formatReport({
      ok: false,
      total: 53,
      failures: [failure('A', 'type'), failure('B', 'state'), failure('C', 'type')],
      stateErrors: [],
    });
    expect(summary).toBe(
      [
        'Pact verification: 53 interactions, 50 passed, 3 failed.',
        '  ✗ cause of A',
        '      in A',
        "      pact: a line of Pact's about A",
        '  ✗ cause of B',
        '      in B',
        "      pact: a line of Pact's about B",
        '  ✗ cause of C',
        '      in C',
        "      pact: a line of Pact's about C",
        'Failures by cause:',
        '    2  a value of another type',
        '    1  a provider state was not set up',
      ].join('\n'),
    );
  });
});
