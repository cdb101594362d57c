// Fetches the original of a picture for the image route, with its input capped: no redirects
// (a backend's redirect could point anywhere: SSRF), a deadline for the whole download, and a
// byte limit checked while the body arrives (a missing or lying Content-Length changes nothing).

export type SourceFailure = 'missing' | 'unreachable' | 'too-large' | 'too-slow' | 'not-an-image';

export class SourceError extends Error {
  constructor(readonly reason: SourceFailure) {
    super(`image source: ${reason}`);
  }
}

/** The validators a cached result was made from; sent back as a conditional request. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type SourceAnswer =
  { kind: 'unchanged' } | { kind: 'body'; body: Buffer; type: string; validators: Validators };

export interface SourceLimits {
  maxBytes: number;
  /** The source's own budget: its download ends then, whoever waits for it. */
  timeoutMs: number;
  /** Through the server's bounded agent to the backend. */
  fetch: typeof fetch;
}

async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new SourceError('too-large');
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks, total);
}

/**
 * GETs `url`; with `known` validators, a 304 answers `unchanged`. `requestId`: the request it is
 * fetched for (X-Request-Id), so that the backend's log line names it.
 */
export async function fetchSource(
  url: string,
  limits: SourceLimits,
  known?: Validators,
  requestId?: string,
): Promise<SourceAnswer> {
  const headers: Record<string, string> = { Accept: 'image/*' };
  if (requestId) headers['X-Request-Id'] = requestId;
  if (known?.etag) headers['If-None-Match'] = known.etag;
  if (known?.lastModified) headers['If-Modified-Since'] = known.lastModified;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const response = await limits.fetch(url, {
      headers,
      redirect: 'manual',
      signal: controller.signal,
    });
    // A body left unread holds the backend's connection until it is collected.
    const refuse = async (reason: SourceFailure): Promise<never> => {
      await response.body?.cancel().catch(() => {});
      throw new SourceError(reason);
    };
    if (response.status === 304 && known) return { kind: 'unchanged' };
    if (response.status === 404 || response.status === 410) return await refuse('missing');
    if (response.status !== 200) return await refuse('unreachable');
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!type.startsWith('image/')) return await refuse('not-an-image');
    if (Number(response.headers.get('content-length')) > limits.maxBytes) {
      return await refuse('too-large');
    }
    const body = await readCapped(response, limits.maxBytes);
    const validators: Validators = {};
    const etag = response.headers.get('etag');
    const lastModified = response.headers.get('last-modified');
    if (etag) validators.etag = etag;
    if (lastModified) validators.lastModified = lastModified;
    return { kind: 'body', body, type, validators };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(controller.signal.aborted ? 'too-slow' : 'unreachable');
  } finally {
    clearTimeout(timer);
  }
}
