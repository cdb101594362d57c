// Browsers drop tabs and line breaks inside URLs and read `\` as `/`, so `/\t/evil` or `/\evil`
// would become `//evil`: a path that carries any of them is not trusted at all.
function hasUnsafeCharacter(path: string): boolean {
  for (const char of path) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

// Any origin works as the base: the point is only to see whether the path leaves it.
const PROBE_ORIGIN = 'https://shop.invalid';

/**
 * `raw` when it is a path on this site (with its query and fragment), else null: a link or a
 * redirect to it cannot lead to another site (`//evil.example`, `https://…`, `javascript:…`).
 */
export function sitePath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  if (hasUnsafeCharacter(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // `/.//evil.example` resolves to the path `//evil.example`, which a later reload or link
  // would read as another host.
  if (url.pathname.startsWith('//')) return null;
  return raw;
}

/** The path of `raw`, lower-cased as the router matches it; for a path sitePath() accepted. */
export function pathnameOf(raw: string): string {
  return new URL(raw, PROBE_ORIGIN).pathname.toLowerCase();
}
