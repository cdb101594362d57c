// The links of a Markdown file, as a reader meets them: inline links, reference definitions and
// addresses written as plain text, outside code (a fenced block or a `span` is an example, not a
// link). Used by docs.test.ts.
import path from 'node:path';

/** The text with its fenced code blocks and code spans taken out. */
function prose(markdown: string): string {
  return markdown.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * Every link target of the text, in order: `deploy.md#settings`, `https://…`; and a path named in
 * a code span that climbs out of its folder (`../shared/ARCHITECTURE.md`), which a reader follows
 * as a link too.
 */
export function linksOf(markdown: string): string[] {
  const text = prose(markdown);
  const found: { at: number; target: string }[] = [];
  const spans = markdown.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '');
  for (const match of spans.matchAll(/`(\.\.\/[^`\s]+)`/g)) {
    found.push({ at: -1, target: match[1] as string });
  }
  const taken: [number, number][] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?[^)]*\)/g)) {
    found.push({ at: match.index, target: match[1] as string });
    taken.push([match.index, match.index + match[0].length]);
  }
  for (const match of text.matchAll(/^\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)) {
    found.push({ at: match.index, target: match[1] as string });
    taken.push([match.index, match.index + match[0].length]);
  }
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s)>\]]+/g)) {
    if (taken.some(([start, end]) => match.index >= start && match.index < end)) continue;
    found.push({ at: match.index, target: match[0].replace(/[.,;:]+$/, '') });
  }
  return found.sort((a, b) => a.at - b.at).map((link) => link.target);
}

/** GitHub's anchors of the text's headings: lower case, punctuation dropped, spaces as `-`. */
export function headingAnchors(markdown: string): string[] {
  return [
    ...markdown.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm),
  ].map((match) =>
    (match[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-'),
  );
}

export interface LinkCheck {
  /** The repository's root. */
  root: string;
  /** The file the link is in. */
  file: string;
  exists: (file: string) => boolean;
  anchorsOf: (file: string) => string[];
}

/**
 * An example address, not a link: a name reserved for examples (RFC 6761: `.example`, `.test`,
 * `.invalid`, `localhost`) or a loopback address, which lead nowhere outside the reader's machine.
 * The settings' table (host/settings.ts, quoted by docs/deploy.md) writes its limits so.
 */
function isExampleAddress(link: string): boolean {
  const host = /^https?:\/\/([^/:?#]+)/i.exec(link)?.[1]?.toLowerCase();
  if (host === undefined) return false;
  return /(^|\.)(example|test|invalid|localhost)$/.test(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** What is wrong with one link: empty when it leads to a file (and heading) of the repository. */
export function problemsOfLink(link: string, check: LinkCheck): string[] {
  if (isExampleAddress(link)) return [];
  if (/^[a-z][a-z\d+.-]*:/i.test(link) || link.startsWith('//')) {
    return [`${link} leaves the repository`];
  }
  const [file = '', anchor] = link.split('#');
  const target =
    file === '' ? check.file : path.resolve(path.dirname(check.file), decodeURIComponent(file));
  const inside = path.relative(check.root, target);
  if (inside.startsWith('..') || path.isAbsolute(inside)) {
    return [`${link} leaves the repository`];
  }
  if (!check.exists(target)) return [`${link}: no such file`];
  if (anchor && target.endsWith('.md') && !check.anchorsOf(target).includes(anchor)) {
    return [`${link}: no such heading`];
  }
  return [];
}
