// What a page's HTML carries from the production build (dist/client and its Vite manifest):
//   - every stylesheet the page needs, inline: no request holds its first paint back;
//   - a short inline script that loads the app's code once the page has painted its content.
// Why the wait: on a phone, the server's HTML is readable long before the app's code has
// downloaded and run; started at once, that code (and its hydration) is what the first paint
// waited for. Links work as plain links meanwhile, as they do without JavaScript.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

export interface PageAssets {
  /** The build's index.html, its stylesheet inline and its entry script taken out. */
  template: string;
  /** For the `<head>`: the page module's own stylesheets, and the script that starts the app. */
  pageHead(pageSource: string | undefined): string;
  /** CSP sources for the template's and the start script's inline code. */
  scriptHashes: string[];
}

/**
 * Loads `scripts` (the last is the entry) after the first contentful paint. A tab opened in the
 * background paints only when shown, and an old browser may have no paint timing: the timer
 * starts the app in those cases. The paint can come while the rest of a slow page is still
 * arriving, and a script added from here runs as soon as it is there (from the cache, at once):
 * the entry, which reads the page's data at the end of <body>, is added once the document has
 * been parsed. The page's chunks are only preloaded, so they may come early. One element a task:
 * each starts a download, some milliseconds of a phone's main thread, and all seven of the home
 * page's at once were a task of 200 ms on the phone, right after its first paint (issue 44).
 */
const START_AFTER_PAINT = `(scripts) => {
  let started = false;
  const add = (tag, attributes) => {
    const element = document.createElement(tag);
    element.crossOrigin = '';
    Object.assign(element, attributes);
    document.head.append(element);
  };
  const preloads = scripts.slice(0, -1);
  const run = () => add('script', { type: 'module', src: scripts[scripts.length - 1] });
  // The next task through a message, as React's scheduler yields: not a timer, which a test's
  // stopped clock (or a browser's throttling of a background tab) would hold back.
  const tasks = new MessageChannel();
  const next = () => {
    const href = preloads.shift();
    if (href !== undefined) {
      add('link', { rel: 'modulepreload', href });
      tasks.port2.postMessage(null);
    } else if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', run, { once: true });
    } else {
      run();
    }
  };
  tasks.port1.onmessage = next;
  const start = () => {
    if (started) return;
    started = true;
    next();
  };
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  } catch {
    start();
  }
  setTimeout(start, 3000);
}`;

/** The start script as the page carries it: reads its list of files from its own attribute. */
const START_SCRIPT = `(${START_AFTER_PAINT})(JSON.parse(document.currentScript.dataset.scripts));`;

/** A CSP source for an inline script: the SHA-256 of its text, as browsers compute it. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The texts of a page's inline scripts (those without src; data blocks are no scripts). */
function inlineScripts(html: string): string[] {
  return [
    ...html.matchAll(
      /<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/)[^>]*>([^]*?)<\/script>/g,
    ),
  ].map((match) => match[1] ?? '');
}

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g;

export async function readPageAssets(clientDir: string): Promise<PageAssets> {
  const [html, manifestText] = await Promise.all([
    readFile(path.join(clientDir, 'index.html'), 'utf8'),
    readFile(path.join(clientDir, '.vite', 'manifest.json'), 'utf8'),
  ]);
  const manifest = JSON.parse(manifestText) as Manifest;
  const cssFiles = new Set(Object.values(manifest).flatMap((chunk) => chunk.css ?? []));
  const css = new Map(
    await Promise.all(
      [...cssFiles].map(async (file) => {
        const text = await readFile(path.join(clientDir, file), 'utf8');
        // Written inside <style>: a `</style` in it would end the element early.
        if (/<\/style/i.test(text)) throw new Error(`${file} cannot be inlined: it holds </style`);
        return [file, text] as const;
      }),
    ),
  );
  // The link tells Vite's loader, when a later page's code asks for the same stylesheet, that it
  // is on the page already (the loader looks for a rel=stylesheet link by href alone). Its type is
  // not a styling language, so no browser fetches it: `disabled` alone still fetches in older
  // Chromium (150, Debian's at times). `disabled` keeps it from ever applying.
  const inline = (file: string) => {
    const text = css.get(file);
    if (text === undefined) throw new Error(`${file} is not in the build's manifest`);
    return `<style>${text}</style><link rel="stylesheet" type="text/x-inlined" href="/${file}" disabled />`;
  };

  const entryScript = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entryScript) throw new Error('dist/client/index.html has no entry script');
  const template = html
    .replace(ENTRY_SCRIPT, '')
    .replace(STYLESHEET, (_link, file: string) => inline(file));

  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const closure = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, into);
    return into;
  };
  const initial = entryKey ? closure(entryKey, new Set()) : new Set<string>();
  const cache = new Map<string, { styles: string; scripts: string[] }>();
  const pageParts = (pageSource: string | undefined) => {
    const key = pageSource && manifest[pageSource] ? pageSource : '';
    let parts = cache.get(key);
    if (!parts) {
      const own = key ? [...closure(key, new Set())].filter((chunk) => !initial.has(chunk)) : [];
      const styles = new Set(own.flatMap((chunk) => manifest[chunk]?.css ?? []));
      parts = {
        styles: [...styles].map(inline).join(''),
        scripts: [...own.map((chunk) => `/${manifest[chunk]?.file}`), entryScript],
      };
      cache.set(key, parts);
    }
    return parts;
  };

  return {
    template,
    scriptHashes: [...inlineScripts(template), START_SCRIPT].map(scriptHash),
    pageHead(pageSource) {
      const { styles, scripts } = pageParts(pageSource);
      // The same script on every page (its hash is in the CSP); the page's files in an attribute.
      const start = `<script data-scripts="${escapeAttribute(JSON.stringify(scripts))}">${START_SCRIPT}</script>`;
      return `${styles}\n    ${start}`;
    },
  };
}
