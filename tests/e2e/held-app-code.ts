// The app's code, held back by the test: the page stays the server's HTML, as it is on a slow
// phone between the first paint and hydration, for as long as the test needs (to type into it,
// to tap it), and no longer. Nothing depends on how fast the machine loads the script.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { type HeldAnswers, holdAnswers } from './held-answers.ts';

const CLIENT_DIR = fileURLToPath(new URL('../../dist/client', import.meta.url));

/** The path of the app's entry script in the production build, as its Vite manifest names it. */
function entryScriptPath(): string {
  const manifestFile = path.join(CLIENT_DIR, '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean }
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error(`e2e: ${manifestFile} names no entry`);
  return `/${entry.file}`;
}

/**
 * Opens `path` with the app's entry script held: resolves once the page has painted and asked for
 * it. The page's own chunks may arrive meanwhile (they are only preloaded): none of them runs
 * before the entry. `release` lets it through; until then the page's load never ends.
 */
export async function openWithAppCodeHeld(page: Page, path: string): Promise<HeldAnswers> {
  const entry = entryScriptPath();
  const app = await holdAnswers(page, (url) => url.pathname === entry);
  await page.goto(path, { waitUntil: 'commit' });
  await app.asked;
  return app;
}
