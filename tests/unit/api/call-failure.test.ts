// What a failed call met, as the app in the browser reads it: the shop's /api answers for the
// backend, and names the outcome of a call it could not pass on; a gateway's page stands for a
// server it could not reach; and the case the shopper is told of follows from the outcome.
import { ofetch } from 'ofetch';
import { describe, expect, it } from 'vitest';
import {
  callOutcome,
  FAILURE_CASE,
  failureCase,
  OUTCOME_HEADER,
  statusOutcome,
} from '../../../src/api/call-failure';

/** What a call through ofetch fails with when /api answers `response` (or fetch throws it). */
async function failureOf(answer: Response | Error): Promise<unknown> {
  const api = ofetch.create(
    { baseURL: 'http://shop.test/api', retry: 0 },
    {
      fetch: () => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)),
    },
  );
  return api('/catalog/basket').then(
    () => {
      throw new Error('the call did not fail');
    },
    (error: unknown) => error,
  );
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('the outcome of a failed call, in the browser', () => {
  it.each([
    ['the backend’s own error', json(500, { detail: 'boom' }), '5xx', 'error'],
    ['a 401 the shop did not expect', json(401, { detail: 'нет' }), '4xx', 'error'],
    ['a 404', json(404, { detail: 'Не найдено.' }), '4xx', 'error'],
    [
      'the shop’s /api: the backend does not answer in time',
      json(504, { detail: 'Сервер магазина недоступен' }, { [OUTCOME_HEADER]: 'timeout' }),
      'timeout',
      'unreachable',
    ],
    [
      'the shop’s /api: the backend is down',
      json(502, { detail: 'Сервер магазина недоступен' }, { [OUTCOME_HEADER]: 'refused' }),
      'refused',
      'unreachable',
    ],
    [
      'the shop’s /api: JSON of another shape',
      json(
        502,
        { detail: 'Сервер магазина ответил не так, как ожидалось' },
        {
          [OUTCOME_HEADER]: 'bad_shape',
        },
      ),
      'bad_shape',
      'unreadable',
    ],
    [
      'nginx’s page: the shop’s server is not there',
      new Response('<html><title>502 Bad Gateway</title></html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      }),
      'refused',
      'unreachable',
    ],
    [
      'nginx’s page: the shop’s server did not answer in time',
      new Response('<html><title>504 Gateway Time-out</title></html>', {
        status: 504,
        headers: { 'content-type': 'text/html' },
      }),
      'timeout',
      'unreachable',
    ],
    ['no connection at all', new TypeError('Failed to fetch'), 'refused', 'unreachable'],
  ])('%s', async (_what, answer, outcome, failure) => {
    const error = await failureOf(answer);
    expect(callOutcome(error)).toBe(outcome);
    expect(failureCase(error)).toBe(failure);
  });

  it('knows the server’s own errors by name, down their causes', () => {
    const named = (name: string) => Object.assign(new Error(name), { name });
    expect(callOutcome(new Error('x', { cause: named('DeadlineError') }))).toBe('timeout');
    expect(callOutcome(named('AnswerTooLargeError'))).toBe('too_big');
    expect(callOutcome(named('BackendRedirectError'))).toBe('redirect');
    expect(callOutcome(named('UnexpectedAnswerError'))).toBe('bad_shape');
    expect(callOutcome(named('BackendBusyError'))).toBe('refused');
    // A name an Object has is no outcome.
    expect(callOutcome(named('toString'))).toBe('refused');
  });

  it('groups the outcomes into the three cases a shopper is told of', () => {
    expect(FAILURE_CASE).toEqual({
      timeout: 'unreachable',
      refused: 'unreachable',
      '4xx': 'error',
      '5xx': 'error',
      bad_shape: 'unreadable',
      too_big: 'unreadable',
      redirect: 'unreadable',
    });
    expect(statusOutcome(502, true)).toBe('5xx');
    expect(statusOutcome(503, false)).toBe('5xx');
  });
});
