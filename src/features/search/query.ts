// What the search field may hold and what is sent for it.

/**
 * The longest text the field keeps, the URL carries and the stub is asked for. The longest
 * product name is under 60 characters, so a longer query cannot find anything more; without a
 * cap a pasted 10,000-character text would become a ~60 KB URL (percent-encoded Cyrillic), which
 * makes a reload fail on the server's header size limit and sends a huge request on each pause.
 */
export const MAX_QUERY_LENGTH = 100;

/** The field's text, cut to the cap. */
export function capText(text: string): string {
  return text.length > MAX_QUERY_LENGTH ? text.slice(0, MAX_QUERY_LENGTH) : text;
}

/** What is searched for a text: surrounding spaces do not change the search; '' searches nothing. */
export function queryOf(text: string): string {
  return capText(text).trim();
}
