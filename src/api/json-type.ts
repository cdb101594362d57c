/**
 * Whether a Content-Type is exactly one type of the JSON family (`application/json`,
 * `application/problem+json`), with parameters or without: what an answer of the backend's must
 * be, for the server's calls and for the browser's /api alike.
 */
export function isJsonType(contentType: string | null | undefined): boolean {
  return /^\s*application\/([\w.-]+\+)?json\s*(;[^,]*)?$/i.test(contentType ?? '');
}
