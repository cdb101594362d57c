// Issue 42: the README is what a newcomer reads in five minutes, and docs/ holds the rest. The
// README stays short, and no link of the README or of docs/ points at nothing or leaves the
// repository: a reader of a copy of it (a tarball, a fork, an offline checkout) follows every one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { headingAnchors, linksOf, problemsOfLink } from './links';

// The unit project runs from the repository's root.
const ROOT = process.cwd();
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

test('the README is at most 160 lines and starts with the two commands', () => {
  const readme = read('README.md');
  expect(readme.split('\n').length).toBeLessThanOrEqual(160);
  expect(readme).toMatch(/^# .*\n\n```sh\nnpm ci && npm start\nnpm test\n```\n/);
});

test('the README links to every file of docs/', () => {
  const linked = linksOf(read('README.md')).map((link) => link.split('#')[0]);
  expect(DOCS.filter((file) => file !== 'README.md' && !linked.includes(file))).toEqual([]);
});

describe.each(DOCS)('%s', (file) => {
  test('every link is to a file (and heading) of the repository', () => {
    const problems = linksOf(read(file)).flatMap((link) =>
      problemsOfLink(link, {
        root: ROOT,
        file: path.join(ROOT, file),
        exists: existsSync,
        anchorsOf: (target) => headingAnchors(readFileSync(target, 'utf8')),
      }),
    );
    expect(problems).toEqual([]);
  });
});

describe('the link checker', () => {
  const options = {
    root: '/repo',
    file: '/repo/docs/behaviour.md',
    exists: (file: string) =>
      ['/repo/README.md', '/repo/docs/deploy.md', '/repo/docs/behaviour.md'].includes(file),
    anchorsOf: () => ['settings'],
  };

  test('finds the links outside code, and the addresses written as text', () => {
    const text = [
      'See [deploy](deploy.md#settings), [the spec](../shared/spec.md) and https://example.com.',
      '`[not a link](nowhere.md)` and `http://127.0.0.1:3000/`',
      '```sh',
      'curl http://127.0.0.1:3000/healthz   # [x](y.md)',
      '```',
      '[ref]: <https://example.org>',
      'The design: `../shared/ARCHITECTURE.md`.',
    ].join('\n');
    expect(linksOf(text)).toEqual([
      '../shared/ARCHITECTURE.md',
      'deploy.md#settings',
      '../shared/spec.md',
      'https://example.com',
      'https://example.org',
    ]);
  });

  test('refuses a link that leaves the repository, points at nothing or at no heading', () => {
    expect(problemsOfLink('deploy.md#settings', options)).toEqual([]);
    expect(problemsOfLink('../README.md', options)).toEqual([]);
    expect(problemsOfLink('https://github.com/bvaughn/react-window', options)).toEqual([
      'https://github.com/bvaughn/react-window leaves the repository',
    ]);
    expect(problemsOfLink('mailto:shop@berries.ru', options)).toEqual([
      'mailto:shop@berries.ru leaves the repository',
    ]);
    expect(problemsOfLink('https://backend.example/api', options)).toEqual([]);
    expect(problemsOfLink('http://127.0.0.1:8082', options)).toEqual([]);
    expect(problemsOfLink('../../shared/ARCHITECTURE.md', options)).toEqual([
      '../../shared/ARCHITECTURE.md leaves the repository',
    ]);
    expect(problemsOfLink('operate.md', options)).toEqual(['operate.md: no such file']);
    expect(problemsOfLink('#settings', options)).toEqual([]);
    expect(problemsOfLink('deploy.md#deploy', options)).toEqual([
      'deploy.md#deploy: no such heading',
    ]);
  });

  test('makes GitHub’s anchors of headings', () => {
    expect(headingAnchors('# Deploying the shop\n## Pictures served, nginx, fair use\n')).toEqual([
      'deploying-the-shop',
      'pictures-served-nginx-fair-use',
    ]);
    expect(
      headingAnchors("## One order per checkout: `Idempotency-Key`\n## Behind the shop's"),
    ).toEqual(['one-order-per-checkout-idempotency-key', 'behind-the-shops']);
  });
});
