// The app's server entry (src/server-entry/entry-server.tsx) as the host loads it: the host's one
// way to the app's code. Loaded once at start and handed to the parts that need it; the page
// renderer in development asks Vite again on each request, for the source as it is now.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteDevServer } from 'vite';
import type * as EntryServer from '../src/server-entry/entry-server.tsx';

export type Entry = typeof EntryServer;
export type { FailedOutcome, ServerLog, ShopCookie } from '../src/server-entry/entry-server.tsx';

/** The entry in the build (`npm run build` writes it to dist/server). */
export function builtEntry(distDir: string): Promise<Entry> {
  const file = path.join(distDir, 'server', 'entry-server.js');
  return import(pathToFileURL(file).href) as Promise<Entry>;
}

/** The entry's source through Vite (`npm run dev`): it imports CSS modules, which Node cannot. */
export async function sourceEntry(vite: ViteDevServer): Promise<Entry> {
  return (await vite.ssrLoadModule('/src/server-entry/entry-server.tsx')) as Entry;
}
