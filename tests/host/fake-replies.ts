// How the server tests' fake backends answer a call (as a `fetch` the server's calls go through):
// a response, never (until the call is aborted, as a stalled backend), or not at all (down).
import type { Product } from '../../src/api/types';

/** A product as the backend lists it, for the fakes' answers. */
export const raspberry: Product = {
  id: 7,
  name: 'Малина',
  image: null,
  unit: 'шт',
  unit_step: null,
  price: 250,
  rest: 5,
  available: true,
};

export type Reply = Response | 'stall' | 'down';

export function json(status: number, body: unknown, setCookies: string[] = []): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  for (const line of setCookies) headers.append('set-cookie', line);
  return new Response(JSON.stringify(body), { status, headers });
}

/** The answer `fetch` gives for `reply`; `onStall` is told when a call starts being held. */
export function answer(reply: Reply, init: RequestInit | undefined, onStall: () => void) {
  if (reply === 'down') return Promise.reject(new TypeError('fetch failed'));
  if (reply !== 'stall') return Promise.resolve(reply);
  const signal = init?.signal;
  onStall();
  return new Promise<Response>((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
