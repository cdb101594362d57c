// What every page of a theme and a page module has in common (some 80 KB: the inline styles, the
// theme's variables), made into bytes once per build rather than on every request.

/**
 * The build's page template and each page's stylesheets and scripts (host/pages/render.ts's Build).
 */
export interface PageTemplate {
  template: string;
  pageHead(pageSource: string | undefined): string;
}

/** A page's HTML around what its request adds (its head's meta, the app, its data), as bytes. */
export interface PageBytes {
  /** Up to the page's own head: the template's start, the visitor's theme on the html element. */
  start: Buffer;
  /** After the page's own head: the theme's variables, the page's styles and start script, the
   *  template up to the app. */
  head: Buffer;
  /** From the app to its data. */
  beforeData: Buffer;
  end: Buffer;
}

const pageBytesCache = new WeakMap<PageTemplate, Map<string, PageBytes>>();

/** The bytes around a page of `pageSource` in `theme`, made once per build. */
export function pageBytes(
  entry: { themeVariablesCss(): string },
  build: PageTemplate,
  theme: 'light' | 'dark',
  pageSource: string | undefined,
): PageBytes {
  let cache = pageBytesCache.get(build);
  if (!cache) pageBytesCache.set(build, (cache = new Map()));
  const key = `${theme} ${pageSource ?? ''}`;
  let bytes = cache.get(key);
  if (!bytes) {
    // The stored theme is on the html element from the first byte: no flash of the light one,
    // with JavaScript or without.
    const html = build.template.replace(
      'data-mantine-color-scheme="light"',
      `data-mantine-color-scheme="${theme}"`,
    );
    const [start = '', end = ''] = html.split('<!--app-html-->');
    const [beforeHead = '', afterHead = ''] = start.split('<!--app-head-->');
    const [beforeData = '', afterData = ''] = end.split('<!--app-data-->');
    const head = [`<style>${entry.themeVariablesCss()}</style>`, build.pageHead(pageSource)]
      .filter(Boolean)
      .map((part) => `\n    ${part}`)
      .join('');
    bytes = {
      start: Buffer.from(beforeHead),
      head: Buffer.from(head + afterHead),
      beforeData: Buffer.from(beforeData),
      end: Buffer.from(afterData),
    };
    cache.set(key, bytes);
  }
  return bytes;
}
