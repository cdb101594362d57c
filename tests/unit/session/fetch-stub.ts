import { vi } from 'vitest';

export interface StubbedCall {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

type Reply = { status: number; body?: unknown } | 'network-error';

/**
 * Replaces fetch with `route`, which answers each call by method and path (no network), and
 * returns the list of calls made so far.
 */
export function stubFetch(route: (call: StubbedCall) => Reply): StubbedCall[] {
  const calls: StubbedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(new URL(String(input), 'http://shop.test'), init);
      const text = await request.text();
      const call: StubbedCall = {
        method: request.method,
        path: new URL(request.url).pathname,
        authorization: request.headers.get('Authorization'),
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      calls.push(call);
      const reply = route(call);
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}
