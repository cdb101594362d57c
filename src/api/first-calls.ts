// Answers to the first screen's calls, which index.html starts before the app's code arrives
// (src/app/first-calls.ts lists them). The HTTP client asks here before it goes to the network.

/** One call index.html started: its answer to come, and the token it was sent with. */
export interface FirstCall {
  url: string;
  token: string | null;
  /** performance.now() when it left. */
  at: number;
  response: Promise<Response>;
  taken?: boolean;
}

declare global {
  interface Window {
    /** Written by index.html's preload script. */
    __firstCalls?: FirstCall[];
  }
}

/** After this, an unused answer may be out of date: the app asks again. */
const FRESH_MS = 30_000;

function sameRequest(a: URL, b: URL): boolean {
  if (a.origin !== b.origin || a.pathname !== b.pathname) return false;
  const sorted = (url: URL) => [...url.searchParams].sort().join('&');
  return sorted(a) === sorted(b);
}

/**
 * The answer index.html already asked for, when this GET is that same call with the same token:
 * each is handed out once, and only while fresh.
 */
export function takeFirstCall(
  url: string,
  init: { method?: string; headers?: HeadersInit; signal?: AbortSignal | null },
): Promise<Response> | undefined {
  const calls = typeof window === 'undefined' ? undefined : window.__firstCalls;
  if (!calls) return undefined;
  if ((init.method ?? 'GET').toUpperCase() !== 'GET') {
    // A change may change any answer: the ones not yet used are dropped.
    for (const call of calls) call.taken = true;
    return undefined;
  }
  const wanted = new URL(url, window.location.href);
  const auth = new Headers(init.headers).get('Authorization');
  const call = calls.find(
    (candidate) =>
      !candidate.taken &&
      sameRequest(new URL(candidate.url, window.location.href), wanted) &&
      (candidate.token ? `Token ${candidate.token}` : null) === auth,
  );
  if (!call || performance.now() - call.at > FRESH_MS || init.signal?.aborted) return undefined;
  call.taken = true;
  const { signal } = init;
  if (!signal) return call.response;
  // The caller may give up on it (a newer search), as it could on its own request.
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    call.response.then(resolve, reject);
  });
}
