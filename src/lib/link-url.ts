// An address the backend gives for a link (the policy's file): a path on the shop's own origin,
// or an http(s) address elsewhere (a file store). `javascript:`, `data:` and every other scheme,
// or text that is no address, never reach an `href`.
import { sameOriginPath } from './same-origin-path';

const LINK_SCHEMES = new Set(['https:', 'http:']);

/** `value` when it is such an address, else null. */
export function linkUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.startsWith('/')) return value !== '/' && sameOriginPath(value) === value ? value : null;
  try {
    return LINK_SCHEMES.has(new URL(value).protocol) ? value : null;
  } catch {
    return null;
  }
}
