// The browser's own cookies. document.cookie is the browser's serialisation, not a request's
// header: this small reader keeps the 'cookie' package (which the server parses requests and
// Set-Cookie lines with) out of the first view's JS budget.
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

export function writeCookie(name: string, value: string, maxAgeDays: number): void {
  const maxAge = Math.round(maxAgeDays * 24 * 60 * 60);
  // A past Expires as well: some engines keep a max-age=0 cookie until the clock ticks on.
  const expired = maxAge <= 0 ? '; expires=Thu, 01 Jan 1970 00:00:00 GMT' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${maxAge}${expired}; path=/; SameSite=Lax`;
}
