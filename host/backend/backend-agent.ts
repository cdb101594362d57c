// The server's own connections to the backend (its calls for pages and forms, the image route's
// sources): one keep-alive agent with a cap on sockets, so that a backend that stalls can never
// pile up sockets until the process runs out of files, shared fairly between the visitors
// (host/backend/backend-share.ts). Past the cap a call fails at once, and the page or form answers
// with its message, instead of queueing behind calls that hang; a call past its address's share
// waits for that address's own calls, within its deadline.
import { Agent, fetch as agentFetch } from 'undici';
import { BackendShare, type CallKind, shareLimits } from './backend-share.ts';
import { shopDefaults } from '../process/settings.ts';

export { BackendBusyError } from './backend-share.ts';

// The most an answer of the backend's to the server's calls (and to /api) may hold
// (BACKEND_MAX_ANSWER_BYTES, 2 MB by default: some 200 times the stub's largest, a catalogue of
// some 12,000 products). Past it the call fails as it streams, so a backend that sends 50 MB
// costs the instance 2 MB of reading, not 50 MB held and parsed on the event loop.

/** The backend answered a call with a redirect, which the server never follows. */
export class BackendRedirectError extends Error {
  constructor(status: number, location: string | null) {
    super(`the backend answered ${status} to ${location ?? '(no Location)'}`);
    this.name = 'BackendRedirectError';
  }
}

/** The backend's answer holds more than the cap: the call failed, and its connection is cut. */
export class AnswerTooLargeError extends Error {
  constructor(max: number) {
    super(`the backend's answer holds more than ${max} bytes`);
    this.name = 'AnswerTooLargeError';
  }
}

export interface BackendAgent {
  /** `fetch` through the agent, as the backend answers (the image route reads its own way). */
  fetch: typeof fetch;
  /**
   * `fetch` for the server's calls for pages and forms: a redirect is a failed call (never
   * followed: an order is never sent again elsewhere), and so is an answer over the cap, counted
   * while it streams in, so that none is ever read whole.
   */
  callFetch: typeof fetch;
  /** Calls under way now. */
  inFlight(): number;
  /** Calls waiting for their address's share now. */
  waiting(): number;
  close(): Promise<void>;
}

/** Which calls are the shopper's own (the app's isShoppersOwnCall): by method and URL path. */
export type CallKinds = (method: string, path: string) => boolean;

/**
 * `body` as it streams, calling `done` once when it has ended, failed or been cancelled: the
 * call's connection is free then, not when its headers came.
 */
function endingWith(
  body: ReadableStream<Uint8Array>,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/** `body` as it streams in, failing once it has brought more than `max` bytes. */
function capped(body: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        // Erroring here cancels the backend's body, which ends its connection.
        if (total > max) controller.error(new AnswerTooLargeError(max));
        else controller.enqueue(chunk);
      },
    }),
  );
}

export function backendAgent(
  maxSockets: number,
  maxAnswerBytes = shopDefaults.backendMaxAnswerBytes,
  isOwnCall: CallKinds = () => false,
): BackendAgent {
  const agent = new Agent({
    connections: maxSockets,
    // Idle sockets go after a few seconds: a stalled backend leaves none behind for long.
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 10_000,
  });
  const share = new BackendShare(shareLimits(maxSockets));
  const boundedFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const { pathname } = new URL(input instanceof Request ? input.url : input);
    const kind: CallKind = isOwnCall(method, pathname) ? 'own' : 'public';
    // Whose call it is: the visitor's address, which the calls pass on to the backend (the image
    // route's sources and the sitemap's walk are the shop's own, under no address).
    const address = new Headers(init?.headers).get('x-forwarded-for') ?? '';
    const release = await share.take(kind, address, { signal: init?.signal ?? undefined });
    let response: Response;
    try {
      // undici's own fetch with its own agent: Node's global fetch bundles another undici.
      response = (await agentFetch(input as Parameters<typeof agentFetch>[0], {
        ...(init as Parameters<typeof agentFetch>[1]),
        dispatcher: agent,
      })) as unknown as Response;
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body) {
      release();
      return response;
    }
    return new Response(endingWith(response.body, release), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  const callFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await boundedFetch(input, { ...init, redirect: 'manual' });
    const refuse = async (error: Error): Promise<never> => {
      await response.body?.cancel().catch(() => {});
      throw error;
    };
    if (response.status >= 300 && response.status < 400) {
      return refuse(new BackendRedirectError(response.status, response.headers.get('location')));
    }
    if (Number(response.headers.get('content-length')) > maxAnswerBytes) {
      return refuse(new AnswerTooLargeError(maxAnswerBytes));
    }
    if (!response.body) return response;
    return new Response(capped(response.body, maxAnswerBytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return {
    fetch: boundedFetch as typeof fetch,
    callFetch: callFetch as typeof fetch,
    inFlight: () => share.count(),
    waiting: () => share.queued(),
    // Destroyed, not closed: a call to a backend that never answers must not hold up a stop.
    close: () => agent.destroy(),
  };
}
