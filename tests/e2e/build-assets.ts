// The build's files a page names: its stylesheets, fonts, and the scripts its loader imports (a
// list in an attribute, HTML-escaped), each under /assets/ with its hash in the name.
const NAMED = /\/assets\/[\w.-]+\.(?:js|css|woff2)\b/g;

/** Every /assets/… file the page's HTML names, once each. */
export function assetsNamed(html: string): string[] {
  return [...new Set(html.match(NAMED) ?? [])];
}
