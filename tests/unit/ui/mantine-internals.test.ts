// Issue 33: the shop draws its controls, cards and texts itself (src/ui/controls) on Mantine's
// public theme variables (`--mantine-*`). Mantine's private names (its hashed class names, its
// components' own CSS variables and data attributes, its focus and active helpers) may change in
// any release, and a page that wrote them by hand would silently lose its look. Mantine's
// components still carry them, in the markup they render; no file of `src/` may write one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

// The unit project runs from the repository's root.
const ROOT = process.cwd();
const SRC = path.join(ROOT, 'src');
const MANTINE_CSS = readFileSync(
  path.join(ROOT, 'node_modules', '@mantine', 'core', 'styles.css'),
  'utf8',
);

/**
 * Every variable Mantine's stylesheet declares or reads for its components' own use (the ones a
 * component sets inline, as `--button-bg`, it only reads), all but the theme's `--mantine-*`.
 */
const PRIVATE_VARIABLES = new Set(
  [...MANTINE_CSS.matchAll(/(--[a-z][\w-]*)/g)]
    .map((match) => match[1] as string)
    .filter((name) => !name.startsWith('--mantine-')),
);

/**
 * The data attributes Mantine's stylesheet styles, but those the shop sets for a meaning of its
 * own: the colour scheme (public, documented), and a control's disabled and loading states
 * (its own controls' CSS styles them; tests read them).
 */
const SHOP_DATA_ATTRIBUTES = new Set([
  'data-mantine-color-scheme',
  'data-disabled',
  'data-loading',
]);
const PRIVATE_DATA_ATTRIBUTES = new Set(
  [...MANTINE_CSS.matchAll(/\[(data-[a-z-]+)/g)]
    .map((match) => match[1] as string)
    .filter((name) => !SHOP_DATA_ATTRIBUTES.has(name)),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(tsx?|css)$/.test(entry.name) ? [file] : [];
  });
}

/** What of Mantine's private names `text` writes. */
export function privateMantineNames(text: string): string[] {
  const found = [
    // Its hashed class names (`m_77c9d27d`), and its global focus and active helpers.
    ...[...text.matchAll(/\bm_[0-9a-f]{6,8}\b|\bmantine-(?:focus-[a-z]+|active)\b/g)].map(
      (match) => match[0],
    ),
    ...[...text.matchAll(/--[a-z][\w-]*/g)]
      .map((match) => match[0])
      .filter((name) => PRIVATE_VARIABLES.has(name)),
    ...[...text.matchAll(/\bdata-[a-z-]+/g)]
      .map((match) => match[0])
      .filter((name) => PRIVATE_DATA_ATTRIBUTES.has(name)),
  ];
  return [...new Set(found)];
}

describe('the shop’s code and CSS', () => {
  test('knows Mantine’s private names it must not write (the check can fail)', () => {
    expect(PRIVATE_VARIABLES).toContain('--button-height-md');
    expect(PRIVATE_DATA_ATTRIBUTES).toContain('data-with-left-section');
    expect(
      privateMantineNames(
        '.price { --button-bg: red; --ai-size: var(--ai-size-lg); } <a class="m_77c9d27d mantine-active" data-variant="light">',
      ),
    ).toEqual([
      'm_77c9d27d',
      'mantine-active',
      '--button-bg',
      '--ai-size',
      '--ai-size-lg',
      'data-variant',
    ]);
  });

  test('write none of Mantine’s private class names, variables or data attributes', () => {
    const offenders = sourceFiles(SRC).flatMap((file) => {
      const names = privateMantineNames(readFileSync(file, 'utf8'));
      return names.length ? [`${path.relative(ROOT, file)}: ${names.join(', ')}`] : [];
    });
    expect(offenders).toEqual([]);
  });
});
